/**
 * `langgraph-checkpoint-sanitizer/redis`: a checkpointer for plain Redis
 * through ioredis (an optional peer dependency, needed only for this entry).
 */
export { IORedisSaver, type IORedisConnection, type IORedisSaverOptions } from "./ioredis-saver.js";
export { resilientClusterOptions, resilientRedisOptions, type ResilienceOptions } from "./connection-options.js";
export { RedisUnavailableError } from "./outage-error.js";
