/** The Tenants screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Tenants</h1>
    </section>
  );
}
