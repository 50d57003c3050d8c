/** The Patient screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Patient</h1>
    </section>
  );
}
