import fp from "fastify-plugin";
import { InboundListener } from "./listener.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The inbound HL7 listener, when `INBOUND_HL7_PORT` turns it on. */
    inboundListener: InboundListener | undefined;
  }
}

/**
 * Runs the inbound MLLP listener inside the API process: it listens once the app is ready and stops
 * before the app closes its database. Every API process may run one (on one port with `WORKERS`, or
 * several servers): the control-id row decides which of them applies a message.
 */
export default fp(
  async (app) => {
    const settings = app.config.inboundHl7;
    const listener =
      settings === undefined
        ? undefined
        : new InboundListener(app.db, settings, app.log.child({ module: "inbound-hl7" }));
    app.decorate("inboundListener", listener);
    if (listener === undefined) return;
    app.addHook("onReady", async () => listener.start());
    app.addHook("preClose", async () => listener.stop());
  },
  { name: "inbound-listener", dependencies: ["db"] },
);
