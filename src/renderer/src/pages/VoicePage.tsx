export default function VoicePage() {
  return (
    <section aria-labelledby="page-title" className="page">
      <h1 id="page-title">Voice</h1>
      <p className="muted">Coming soon.</p>
    </section>
  )
}
