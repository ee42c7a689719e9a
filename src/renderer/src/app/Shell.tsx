import { lazy, Suspense } from 'react'
import { AutoSpeakMount } from '../voice/AutoSpeakMount'
import { AboutPanel } from './AboutPanel'
import { NoticeBar } from './NoticeBar'
import { type Page, pages, useNavigation } from './navigationStore'
import { useThemeSetting } from './useThemeSetting'

const labels: Record<Page, string> = {
  chat: 'Chat',
  voice: 'Voice',
  workspace: 'Workspace',
  settings: 'Settings',
}

const ChatPage = lazy(() => import('../pages/ChatPage'))
const VoicePage = lazy(() => import('../pages/VoicePage'))
const WorkspacePage = lazy(() => import('../pages/WorkspacePage'))
const SettingsPage = lazy(() => import('../pages/SettingsPage'))

function CurrentPage({ page }: { page: Page }) {
  switch (page) {
    case 'chat':
      return <ChatPage />
    case 'voice':
      return <VoicePage />
    case 'workspace':
      return <WorkspacePage />
    case 'settings':
      return <SettingsPage />
  }
}

export function Shell() {
  const { page, go, aboutOpen, setAboutOpen } = useNavigation()
  useThemeSetting()
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand" aria-hidden="true">
          Bureau
        </div>
        <ul>
          {pages.map((p) => (
            <li key={p}>
              <button
                type="button"
                className="nav-item"
                aria-current={page === p ? 'page' : undefined}
                onClick={() => go(p)}
              >
                {labels[p]}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="nav-item about-button" onClick={() => setAboutOpen(true)}>
          About
        </button>
      </nav>
      <main className="content" id="main">
        <NoticeBar />
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <CurrentPage page={page} />
        </Suspense>
      </main>
      {aboutOpen && <AboutPanel onClose={() => setAboutOpen(false)} />}
      <AutoSpeakMount />
    </div>
  )
}
