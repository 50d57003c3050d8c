/** The Account screen. */
export default function Page() {
  return (
    <section className="page">
      <h1>Account</h1>
    </section>
  );
}
