import { lazy, Suspense, useEffect } from 'react'
import { usePendingFileChecks } from '../chat/composer/usePendingFileChecks'
import { Icon, type IconName } from '../components/Icon'
import { usePreview } from '../preview/previewStore'
import { AutoSpeakMount } from '../voice/AutoSpeakMount'
import { AboutPanel } from './AboutPanel'
import { NoticeBar } from './NoticeBar'
import { type Page, pages, useNavigation } from './navigationStore'
import { useShortcuts } from './useShortcuts'
import { useThemeSetting } from './useThemeSetting'

const labels: Record<Page, string> = {
  chat: 'Chat',
  voice: 'Voice',
  workspace: 'Workspace',
  automations: 'Automations',
  settings: 'Settings',
}

const icons: Record<Page, IconName> = {
  chat: 'chat',
  voice: 'mic',
  workspace: 'folder',
  automations: 'refresh',
  settings: 'settings',
}

const ChatPage = lazy(() => import('../chat/ChatPage'))
const VoicePage = lazy(() => import('../voice/VoicePanel'))
const WorkspacePage = lazy(() => import('../workspace/WorkspacePage'))
const SettingsPage = lazy(() => import('../settings/SettingsPage'))
const AutomationsPage = lazy(() => import('../automations/AutomationsPage'))
const loadPreviewPane = () => import('../preview/PreviewPane')
const PreviewPane = lazy(loadPreviewPane)

function CurrentPage({ page }: { page: Page }) {
  switch (page) {
    case 'chat':
      return <ChatPage />
    case 'voice':
      return <VoicePage />
    case 'workspace':
      return <WorkspacePage />
    case 'automations':
      return <AutomationsPage />
    case 'settings':
      return <SettingsPage />
  }
}

export function Shell() {
  const { page, go, aboutOpen, setAboutOpen } = useNavigation()
  useThemeSetting()
  useShortcuts()
  usePendingFileChecks()
  const previewOpen = usePreview((s) => s.target !== undefined)
  // The preview pane's code (and its styles) is fetched and compiled while the app is idle, not on the
  // click that opens it.
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') return
    const id = requestIdleCallback(() => void loadPreviewPane().catch(() => undefined))
    return () => cancelIdleCallback(id)
  }, [])
  return (
    <div className={previewOpen ? 'shell with-preview' : 'shell'}>
      <button
        type="button"
        className="skip-link"
        onClick={() => {
          // The message box when the page has one, else the page itself.
          const target =
            document.querySelector<HTMLElement>('textarea[aria-label="Message"]') ??
            document.getElementById('main')
          target?.focus()
        }}
      >
        Skip to the message box
      </button>
      <nav className="sidebar" aria-label="Main">
        <div className="brand" aria-hidden="true">
          <span className="brand-mark">B</span>
          <span className="brand-name">Bureau</span>
        </div>
        <ul>
          {pages.map((p) => (
            <li key={p}>
              <button
                type="button"
                className="nav-item"
                aria-current={page === p ? 'page' : undefined}
                title={labels[p]}
                onClick={() => go(p)}
              >
                <Icon name={icons[p]} size={18} />
                <span className="nav-label">{labels[p]}</span>
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="nav-item about-button"
          title="About and keyboard shortcuts"
          onClick={() => setAboutOpen(true)}
        >
          <Icon name="info" size={18} />
          <span className="nav-label">About</span>
        </button>
      </nav>
      <main className="content" id="main" tabIndex={-1}>
        <NoticeBar />
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <CurrentPage page={page} />
        </Suspense>
      </main>
      {previewOpen && (
        <Suspense fallback={null}>
          <PreviewPane />
        </Suspense>
      )}
      {aboutOpen && <AboutPanel onClose={() => setAboutOpen(false)} />}
      <AutoSpeakMount />
    </div>
  )
}
