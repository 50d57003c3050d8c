/** The Survey results screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Survey results</h1>
    </section>
  );
}
