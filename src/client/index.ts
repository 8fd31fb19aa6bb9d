/**
 * For a chat page: which messages the sanitizer inserted, without the server's code (no LangGraph, no saver).
 * @module
 */
export { isSyntheticMessage, SYNTHETIC_ID_PREFIX } from "../messages/synthetic-ids.js";
