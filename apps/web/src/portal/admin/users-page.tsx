/** The Users screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Users</h1>
    </section>
  );
}
