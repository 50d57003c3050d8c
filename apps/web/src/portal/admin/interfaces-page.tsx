/** The Interfaces screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Interfaces</h1>
    </section>
  );
}
