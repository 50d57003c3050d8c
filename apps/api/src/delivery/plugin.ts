import fp from "fastify-plugin";
import { DeliveryWorker } from "./worker.js";

declare module "fastify" {
  interface FastifyInstance {
    deliveryWorker: DeliveryWorker;
  }
}

/**
 * Runs the delivery worker inside the API process: started when the app is ready (outside test
 * mode, where tests drive it), stopped before the app closes its database.
 */
export default fp(
  async (app) => {
    const worker = new DeliveryWorker(app.db, app.log.child({ module: "delivery" }));
    app.decorate("deliveryWorker", worker);
    if (app.config.nodeEnv !== "test") app.addHook("onReady", async () => worker.start());
    app.addHook("preClose", async () => worker.stop());
  },
  { name: "delivery-worker", dependencies: ["db"] },
);
