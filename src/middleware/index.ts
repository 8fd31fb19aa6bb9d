// The `langgraph-checkpoint-sanitizer/middleware` entry: the one module that needs the optional `langchain` peer.
export {
  sanitizeMessagesMiddleware,
  type ModelRequestRepairEvent,
  type SanitizeMessagesMiddlewareOptions,
} from "./sanitize-messages.js";
