import { formatPhone } from "@core-care/survey-engine";

export function App() {
  return <h1>Core Care {formatPhone("5551234")}</h1>;
}
