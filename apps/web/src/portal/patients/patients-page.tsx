/** The Patients screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Patients</h1>
    </section>
  );
}
