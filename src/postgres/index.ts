/**
 * `langgraph-checkpoint-sanitizer/postgres`: a faster read path for the official Postgres checkpointer's tables (`pg`
 * and `@langchain/langgraph-checkpoint-postgres` are optional peer dependencies, needed only for this entry).
 */
export { FastPostgresSaver, type FastPostgresSaverOptions } from "./fast-postgres-saver.js";
export { PostgresUnavailableError } from "./outage-error.js";
