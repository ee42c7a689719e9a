/** The Mermaid diagram types Bureau draws in documents, each with a short example the model can follow. */
export const SUPPORTED_DIAGRAMS = [
  {
    type: 'flowchart',
    use: 'processes, decisions, workflows',
    example: 'flowchart TD\n  A[Request] --> B{Approved?}\n  B -->|yes| C[Order]\n  B -->|no| D[Reply]',
  },
  {
    type: 'sequenceDiagram',
    use: 'messages between people or systems over time',
    example: 'sequenceDiagram\n  Alice->>Bob: Invoice\n  Bob-->>Alice: Payment',
  },
  {
    type: 'classDiagram',
    use: 'structures and their relations',
    example: 'classDiagram\n  Customer "1" --> "*" Order\n  Order : +date\n  Order : +total()',
  },
  {
    type: 'stateDiagram-v2',
    use: 'states and transitions',
    example:
      'stateDiagram-v2\n  [*] --> Draft\n  Draft --> Review\n  Review --> Published\n  Published --> [*]',
  },
  {
    type: 'erDiagram',
    use: 'data models',
    example: 'erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  ORDER ||--|{ LINE : contains',
  },
  {
    type: 'gantt',
    use: 'project schedules',
    example:
      'gantt\n  title Launch\n  dateFormat YYYY-MM-DD\n  section Build\n  Design :a1, 2024-01-01, 10d\n  Code :after a1, 20d',
  },
  {
    type: 'pie',
    use: 'shares of a whole',
    example: 'pie title Budget\n  "Staff" : 60\n  "Rent" : 25\n  "Other" : 15',
  },
  {
    type: 'journey',
    use: 'steps of a user task with satisfaction scores',
    example:
      'journey\n  title Expense claim\n  section Submit\n    Fill form: 3: Employee\n    Approve: 4: Manager',
  },
  {
    type: 'gitGraph',
    use: 'branches and merges',
    example: 'gitGraph\n  commit\n  branch draft\n  commit\n  checkout main\n  merge draft',
  },
  {
    type: 'mindmap',
    use: 'ideas around a central topic',
    example: 'mindmap\n  root((Offsite))\n    Venue\n    Agenda\n      Talks\n    Travel',
  },
  {
    type: 'timeline',
    use: 'events in order',
    example: 'timeline\n  title Milestones\n  2023 : Founded\n  2024 : First customer\n  2025 : Expansion',
  },
  {
    type: 'quadrantChart',
    use: 'items placed on two axes',
    example:
      'quadrantChart\n  title Priorities\n  x-axis Low effort --> High effort\n  y-axis Low value --> High value\n  Task A: [0.3, 0.8]\n  Task B: [0.7, 0.2]',
  },
  {
    type: 'xychart-beta',
    use: 'bar and line charts',
    example:
      'xychart-beta\n  title "Sales"\n  x-axis [Jan, Feb, Mar]\n  y-axis "EUR" 0 --> 100\n  bar [40, 65, 80]',
  },
] as const
