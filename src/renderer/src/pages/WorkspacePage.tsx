export default function WorkspacePage() {
  return (
    <section aria-labelledby="page-title" className="page">
      <h1 id="page-title">Workspace</h1>
      <p className="muted">Coming soon.</p>
    </section>
  )
}
