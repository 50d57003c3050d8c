import fp from "fastify-plugin";

/** API answers carry patient data or session state, so none may be cached (issue 3: no-store on PHI). */
export default fp(
  async (app) => {
    app.addHook("onSend", async (request, reply, payload) => {
      if (request.url.startsWith("/api/")) reply.header("Cache-Control", "no-store");
      return payload;
    });
  },
  { name: "no-store" },
);
