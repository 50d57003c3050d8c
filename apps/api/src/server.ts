import { buildApp } from "./app.js";
import { DEFAULT_DEMO_PASSWORD, loadConfig } from "./config.js";

const config = loadConfig();
const app = await buildApp(config);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await app.listen({ port: config.port, host: config.host });
app.log.info(
  `Core Care at ${config.publicUrl} (${app.database.kind}); demo login staff@demo.test` +
    (config.demoPassword === DEFAULT_DEMO_PASSWORD ? ` / ${DEFAULT_DEMO_PASSWORD}` : " with DEMO_PASSWORD"),
);
