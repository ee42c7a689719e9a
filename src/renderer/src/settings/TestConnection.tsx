import { useMutation } from '@tanstack/react-query'
import type { ProviderDraft } from '../../../shared/ipc'
import { Icon } from '../components/Icon'
import { ActionButton } from './ActionButton'
import { useProvidersApi } from './providersApi'

/** One round trip to the provider, with its latency or the reason it failed; tests `draft` (what is on screen) when given. */
export function TestConnection({
  providerId,
  disabled = false,
  draft,
  label = 'Test connection',
}: {
  providerId: string
  disabled?: boolean
  draft?: ProviderDraft
  label?: string
}) {
  const { testProvider } = useProvidersApi()
  const test = useMutation({ mutationFn: () => testProvider(providerId, draft) })
  const result = test.data
  return (
    <div className="test-connection">
      <ActionButton
        icon="refresh"
        pending={test.isPending}
        needsSave={disabled}
        onClick={() => test.mutate()}
      >
        {label}
      </ActionButton>
      <span role="status" className="test-result">
        {test.isError && <span className="error-text">{test.error.message}</span>}
        {result?.ok && (
          <span className="ok-text">
            <Icon name="check" size={14} /> Connected
            {` in ${Math.round(result.latencyMs)} ms`}
            {result.model && ` · ${result.model}`}
          </span>
        )}
        {result && !result.ok && (
          <span className="error-text">{result.message ?? 'The provider did not answer.'}</span>
        )}
      </span>
    </div>
  )
}
