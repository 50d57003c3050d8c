/** The Reports screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Reports</h1>
    </section>
  );
}
