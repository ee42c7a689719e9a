import type { ModelChoice, ModelChoiceGroup } from '../../../shared/ipc'
import { useProviderModels } from '../settings/providersApi'

const SEPARATOR = '\u001f'

export function choiceValue(choice: ModelChoice | undefined): string {
  return choice ? `${choice.providerId}${SEPARATOR}${choice.model ?? ''}` : ''
}

function choiceOf(value: string): ModelChoice | undefined {
  if (value === '') return undefined
  const [providerId = '', model = ''] = value.split(SEPARATOR)
  return model ? { providerId, model } : { providerId }
}

function defaultLabel(groups: readonly ModelChoiceGroup[] | undefined): string {
  const active = groups?.find((g) => g.active)
  return active ? `Default: ${active.name} · ${active.defaultModel}` : 'Default provider'
}

/** Provider + model for this conversation; "Default" follows Settings → Model provider. */
export function ModelPicker({
  value,
  onChange,
  disabled,
}: {
  value: ModelChoice | undefined
  onChange(choice: ModelChoice | undefined): void
  disabled: boolean
}) {
  const groups = useProviderModels()
  const current = choiceValue(value)
  const known = groups.data?.some((g) =>
    g.models.some((m) => choiceValue({ providerId: g.providerId, model: m }) === current),
  )
  return (
    <label className="model-picker">
      <span className="visually-hidden">Model</span>
      <select
        className="input"
        aria-label="Model"
        value={current}
        disabled={disabled}
        onChange={(e) => onChange(choiceOf(e.currentTarget.value))}
      >
        <option value="">{defaultLabel(groups.data)}</option>
        {value && !known && (
          <option value={current}>{`${value.providerId} · ${value.model ?? 'its model'}`}</option>
        )}
        {groups.data?.map((group) => (
          <optgroup
            key={group.providerId}
            label={group.usable ? group.name : `${group.name} — ${group.reason ?? 'not available'}`}
          >
            {group.models.map((model) => (
              <option
                key={model}
                value={choiceValue({ providerId: group.providerId, model })}
                disabled={!group.usable}
              >
                {`${group.name} · ${model}`}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  )
}
