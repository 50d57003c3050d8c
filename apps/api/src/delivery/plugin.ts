import fp from "fastify-plugin";
import { mailStalledQueues, STALL_CHECK_INTERVAL_MS } from "./stall-mail.js";
import { DeliveryWorker } from "./worker.js";

declare module "fastify" {
  interface FastifyInstance {
    deliveryWorker: DeliveryWorker;
  }
}

/**
 * Runs the delivery worker inside the API process: started when the app is ready (outside test
 * mode, where tests drive it), stopped before the app closes its database. Beside it, once a minute,
 * the practices' admins are e-mailed about queues a failed delivery has stalled (stall-mail.ts).
 */
export default fp(
  async (app) => {
    const worker = new DeliveryWorker(app.db, app.log.child({ module: "delivery" }));
    app.decorate("deliveryWorker", worker);
    if (app.config.nodeEnv !== "test") app.addHook("onReady", async () => worker.start());
    app.addHook("preClose", async () => worker.stop());
    if (app.config.nodeEnv !== "test") {
      const log = app.log.child({ module: "delivery-stall" });
      let checking = false;
      let timer: NodeJS.Timeout | undefined;
      const check = async () => {
        if (checking) return;
        checking = true;
        try {
          await mailStalledQueues({
            db: app.db,
            mailer: app.mailer,
            log,
            publicUrl: app.config.publicUrl,
            stallMinutes: app.config.deliveryStallMinutes,
          });
        } catch (cause) {
          log.error({ code: (cause as { code?: unknown }).code }, "stall check failed");
        } finally {
          checking = false;
        }
      };
      app.addHook("onReady", async () => {
        timer = setInterval(() => void check(), STALL_CHECK_INTERVAL_MS);
        timer.unref();
      });
      app.addHook("preClose", async () => clearInterval(timer));
    }
  },
  { name: "delivery-worker", dependencies: ["db"] },
);
