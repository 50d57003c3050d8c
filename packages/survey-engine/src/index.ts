export { formatPhone } from "./phone.js";
