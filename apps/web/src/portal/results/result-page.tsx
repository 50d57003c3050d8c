/** The Survey result screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Survey result</h1>
    </section>
  );
}
