// The official checkpointer conformance suite, run through the sanitizer around each backend.
import { conformanceSuite } from "../support/conformance.js";
import { saverFactories } from "../support/savers.js";

for (const factory of saverFactories) conformanceSuite(factory, { wrapped: true });
