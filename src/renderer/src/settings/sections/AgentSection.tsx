import type { PublicSettings } from '../../../../shared/settings'
import { useInstructionTokens } from '../../chat/composer/useInstructionTokens'
import { Field } from '../../components/Field'
import { issueFor } from '../issuesByPath'
import { SettingsSection } from '../SettingsSection'
import { useToolsets } from '../toolsApi'
import { useSectionForm } from '../useSectionForm'
import { useWholeNumberCheck } from '../useWholeNumberCheck'

type Delegation = 'all' | 'none' | 'some'

/** How the chat's agent works: its step budget and which toolsets it may hand to a sub-agent. */
export function AgentSection({ settings }: { settings: PublicSettings }) {
  const { subagents, maxIterations, instructions } = settings.agent
  const toolsets = useToolsets()
  const form = useSectionForm(
    {
      maxIterations: String(maxIterations),
      delegation: (Array.isArray(subagents) ? 'some' : subagents) as Delegation,
      chosen: Array.isArray(subagents) ? subagents.join(',') : '',
      instructions,
    },
    (d) => ({
      agent: {
        maxIterations: Number(d.maxIterations),
        instructions: d.instructions,
        subagents: d.delegation === 'some' ? d.chosen.split(',').filter(Boolean) : d.delegation,
      },
    }),
  )
  const tokens = useInstructionTokens({ global: form.draft.instructions })
  const steps = useWholeNumberCheck(form.draft.maxIterations, 1, 500)
  const chosen = new Set(form.draft.chosen.split(',').filter(Boolean))
  const toggle = (name: string, on: boolean) => {
    if (on) chosen.add(name)
    else chosen.delete(name)
    form.set('chosen', [...chosen].join(','))
  }

  return (
    <SettingsSection
      id="agent"
      title="Agent"
      description="The agent calls one tool at a time until the task is done. It can hand a self-contained part of a task (a long browsing session, a workbook) to a sub-agent with its own context."
      form={form}
      validate={steps.validate}
    >
      <Field
        label="Steps per request"
        hint="Model calls one chat request may make (default 50)."
        error={steps.error ?? issueFor(form.issues, 'maxIterations')}
      >
        <input className="input" inputMode="numeric" {...form.text('maxIterations')} />
      </Field>
      <Field
        label="Custom instruction"
        hint={
          form.draft.instructions.trim()
            ? `Added to the system prompt of every conversation: ${tokens === undefined ? '…' : tokens.toLocaleString()} tokens. A conversation can add its own (Instructions, above the chat).`
            : 'Added to the system prompt of every conversation (e.g. "Answer in French"). A conversation can add its own.'
        }
        error={issueFor(form.issues, 'instructions')}
      >
        <textarea className="input" rows={3} maxLength={8000} {...form.text('instructions')} />
      </Field>
      <fieldset className="choice-group">
        <legend>Sub-agents</legend>
        {(
          [
            ['all', 'Any toolset'],
            ['none', 'None: the agent does everything itself'],
            ['some', 'Only these toolsets'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="switch">
            <input
              type="radio"
              name="agent-delegation"
              value={value}
              checked={form.draft.delegation === value}
              onChange={() => form.set('delegation', value)}
            />
            {label}
          </label>
        ))}
        {form.draft.delegation === 'some' && (
          <ul className="choice-list" aria-label="Toolsets a sub-agent may use">
            {(toolsets.data ?? []).map((toolset) => (
              <li key={toolset.name}>
                <label className="switch">
                  <input
                    type="checkbox"
                    checked={chosen.has(toolset.name)}
                    onChange={(event) => toggle(toolset.name, event.currentTarget.checked)}
                  />
                  <span>
                    <strong>{toolset.name}</strong> <span className="muted">{toolset.summary}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {issueFor(form.issues, 'subagents') && (
          <p className="field-error" role="alert">
            {issueFor(form.issues, 'subagents')}
          </p>
        )}
      </fieldset>
    </SettingsSection>
  )
}
