// The official checkpointer conformance suite on FastPostgresSaver, raw and through the sanitizer.
import { conformanceSuite } from "../support/conformance.js";
import { fastPostgresFactory } from "../support/savers.js";
import { serviceAvailable } from "../support/services.js";

if (await serviceAvailable("postgres")) {
  conformanceSuite(fastPostgresFactory, { wrapped: false });
  conformanceSuite(fastPostgresFactory, { wrapped: true });
}
