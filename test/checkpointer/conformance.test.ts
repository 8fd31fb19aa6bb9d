// The official checkpointer conformance suite, run through the sanitizer around each backend.
import { conformanceSuite } from "../support/savers/conformance.js";
import { saverFactories } from "../support/savers/savers.js";

for (const factory of saverFactories) conformanceSuite(factory, { wrapped: true });
