/**
 * A Fastify plugin that only registers (routes, hooks, decorators) and awaits nothing, in Fastify's
 * callback form. A throw while registering (a duplicate route, a bad schema) goes to `done`, so
 * `register` fails as it would for an async plugin: avvio lets a callback plugin's throw escape as
 * an uncaught exception instead.
 */
export function registering<Instance, Options>(
  register: (app: Instance, options: Options) => void,
): (app: Instance, options: Options, done: (error?: Error) => void) => void {
  return (app, options, done) => {
    try {
      register(app, options);
    } catch (error) {
      done(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    done();
  };
}
