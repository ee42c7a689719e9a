export default function SettingsPage() {
  return (
    <section aria-labelledby="page-title" className="page">
      <h1 id="page-title">Settings</h1>
      <p className="muted">Coming soon.</p>
    </section>
  )
}
