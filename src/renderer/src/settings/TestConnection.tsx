import { useMutation } from '@tanstack/react-query'
import { Icon } from '../components/Icon'
import { ActionButton } from './ActionButton'
import { testProvider } from './providersApi'

/** One round trip to the provider, with its latency or the reason it failed. */
export function TestConnection({
  providerId,
  disabled,
  label = 'Test connection',
}: {
  providerId: string
  disabled: boolean
  label?: string
}) {
  const test = useMutation({ mutationFn: () => testProvider(providerId) })
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
