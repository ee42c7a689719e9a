import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { StartForBureauResult } from '../../../shared/ipc'
import { Icon } from '../components/Icon'
import { ActionButton } from './ActionButton'
import { useToolsApi } from './toolsApi'
import { SETTINGS_KEY } from './useSettings'

const browserNames: Record<string, string> = { msedge: 'Edge', chrome: 'Chrome', chromium: 'Chromium' }
const browserName = (program: string) => browserNames[program.toLowerCase()] ?? program

function Started({ result }: { result: StartForBureauResult }) {
  const name = browserName(result.browser)
  return (
    <span className="ok-text">
      <Icon name="check" size={14} />
      {/* One flex item, so the text around the endpoint keeps its own spacing. */}
      <span>
        {result.reused ? `${name} was already running for Bureau; connected at ` : `Started ${name} at `}
        <code data-testid="bureau-browser-endpoint">{result.endpoint}</code>. The mode is now “Connect to a
        running browser (CDP)”.
      </span>
    </span>
  )
}

/**
 * "Start Edge for Bureau": the browser on Bureau's own profile with remote debugging; the host saves
 * mode cdp with the endpoint, and the section's fields follow through `settings.changed`.
 */
export function StartBrowserForBureau({ disabled }: { disabled: boolean }) {
  const tools = useToolsApi()
  const queryClient = useQueryClient()
  const start = useMutation({
    mutationFn: () => tools.startBrowserForBureau(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SETTINGS_KEY }),
  })
  return (
    <div className="start-for-bureau">
      <div className="test-connection">
        <ActionButton
          icon="open"
          pending={start.isPending}
          needsSave={disabled}
          onClick={() => start.mutate()}
        >
          Start Edge for Bureau
        </ActionButton>
        <span role="status" className="test-result">
          {start.isPending && 'Starting the browser…'}
          {start.data && !start.isPending && <Started result={start.data} />}
        </span>
      </div>
      <p className="field-hint">
        Opens Edge (or Chrome) on a separate Bureau profile: sign in to your sites once in that window and you
        stay signed in there. Current Edge and Chrome refuse remote debugging on their default profile, so
        Bureau cannot use your everyday windows.
      </p>
      {start.isError && (
        <div className="field-error start-for-bureau-error" role="alert">
          <span>{start.error.message}</span>
          <span>
            What to do: correct or empty the browser executable above (empty finds Edge or Chrome by itself),
            close any window of that browser still open on the Bureau profile, then start again.
          </span>
        </div>
      )}
    </div>
  )
}
