// autocannon's per-request hook, loaded by its worker thread: a fresh client request id for every save.
const { randomBytes } = require("node:crypto");

module.exports = function setupRequest(request) {
  return { ...request, body: request.body.replace("CLIENT_REQUEST_ID", randomBytes(12).toString("hex")) };
};
