/**
 * The load bench's DevOps emulator in a process of its own (`startBenchServerApart`): started with
 * the seeded data folder and the identity provider's JWKS URL, issuer and audience; sends its
 * organization URL to the parent, and stops on SIGTERM or when the parent goes away.
 */
import { buildDevOpsServer, jwksTokenVerifier, listenDevOpsEmulator } from '@aegis/emulators';

const [dataDir = '', jwksUrl = '', issuer = '', audience = ''] = process.argv.slice(2);
const emulator = await listenDevOpsEmulator(
  buildDevOpsServer({ dataDir, verifyToken: jwksTokenVerifier({ jwksUrl, issuer, audience }) }),
  { port: 0 },
);
const stop = () => {
  void emulator.close().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
// a bench that ended without stopping it (killed, crashed) leaves no emulator behind
process.once('disconnect', stop);
process.send?.({ url: emulator.url });
