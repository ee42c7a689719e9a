export default function ChatPage() {
  return (
    <section aria-labelledby="page-title" className="page">
      <h1 id="page-title">Chat</h1>
      <p className="muted">Coming soon.</p>
    </section>
  )
}
