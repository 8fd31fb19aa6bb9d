// The official checkpointer conformance suite on FastPostgresSaver, raw and through the sanitizer.
import { conformanceSuite } from "../support/savers/conformance.js";
import { fastPostgresFactory } from "../support/savers/savers.js";
import { serviceAvailable } from "../support/servers/services.js";

if (await serviceAvailable("postgres")) {
  conformanceSuite(fastPostgresFactory, { wrapped: false });
  conformanceSuite(fastPostgresFactory, { wrapped: true });
}
