import './settings.css'
import { MemorySection } from '../memory/MemorySection'
import { McpSection } from './mcp/McpSection'
import { AgentSection } from './sections/AgentSection'
import { AnonymizationSection } from './sections/AnonymizationSection'
import { AppearanceSection } from './sections/AppearanceSection'
import { ApprovalsSection } from './sections/ApprovalsSection'
import { AttachmentsSection } from './sections/AttachmentsSection'
import { BrowserSection } from './sections/BrowserSection'
import { CalendarSection } from './sections/CalendarSection'
import { EmailSection } from './sections/EmailSection'
import { LocalModelsSection } from './sections/LocalModelsSection'
import { ProviderSection } from './sections/ProviderSection'
import { ToolsSection } from './sections/ToolsSection'
import { VoiceSection } from './sections/VoiceSection'
import { WorkspaceSection } from './sections/WorkspaceSection'
import { useSettings } from './useSettings'

const sections = [
  ['provider', 'Model provider'],
  ['local-models', 'Local models'],
  ['voice', 'Voice'],
  ['workspace', 'Workspace'],
  ['agent', 'Agent'],
  ['approvals', 'Approvals'],
  ['memory', 'Memory'],
  ['anonymization', 'Anonymization'],
  ['attachments', 'Attachments'],
  ['tools', 'Tools'],
  ['mcp', 'MCP servers'],
  ['browser', 'Browser'],
  ['email', 'E-mail'],
  ['calendar', 'Calendar'],
  ['appearance', 'Appearance'],
] as const

/** Every setting, each section saved on its own through settings.update / settings.setSecret. */
export default function SettingsPage() {
  const settings = useSettings()
  return (
    <section className="page settings-page" aria-labelledby="page-title">
      <h1 id="page-title">Settings</h1>
      {settings.isLoading && <p className="muted">Loading…</p>}
      {settings.isError && (
        <p className="banner banner-error" role="alert">
          Settings could not be loaded: {settings.error.message}
        </p>
      )}
      {settings.data && (
        <div className="settings-layout">
          <nav className="settings-nav" aria-label="Settings sections">
            <ul>
              {sections.map(([id, label]) => (
                <li key={id}>
                  <a
                    href={`#${id}`}
                    onClick={(e) => {
                      e.preventDefault()
                      document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' })
                    }}
                  >
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="settings-sections">
            {!settings.data.secretStorage.secure && (
              <p className="banner banner-warning" role="note">
                {settings.data.secretStorage.warning ??
                  'Secrets on this computer are protected only by file permissions.'}
              </p>
            )}
            <ProviderSection settings={settings.data} />
            <LocalModelsSection settings={settings.data} />
            <VoiceSection settings={settings.data} />
            <WorkspaceSection settings={settings.data} />
            <AgentSection settings={settings.data} />
            <ApprovalsSection settings={settings.data} />
            <MemorySection />
            <AnonymizationSection settings={settings.data} />
            <AttachmentsSection settings={settings.data} />
            <ToolsSection settings={settings.data} />
            <McpSection settings={settings.data} />
            <BrowserSection settings={settings.data} />
            <EmailSection settings={settings.data} />
            <CalendarSection settings={settings.data} />
            <AppearanceSection settings={settings.data} />
          </div>
        </div>
      )}
    </section>
  )
}
