/** The Locations screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Locations</h1>
    </section>
  );
}
