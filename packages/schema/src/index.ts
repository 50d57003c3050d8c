export { ErrorResponseSchema, type ErrorResponse } from "./error.js";
