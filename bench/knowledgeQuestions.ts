/**
 * Questions written from the test fixtures (and from the facts the generator plants): a hit is a top-5
 * passage whose text contains `answer`. Phrased as a user would ask, not as the document words it.
 */
export interface Question {
  readonly question: string
  readonly answer: string
}

export const fixtureQuestions: Question[] = [
  { question: 'Who was the cashier at TechMart?', answer: 'Emily Rodriguez' },
  { question: 'How much did the portable SSD 2TB cost?', answer: '$289.00' },
  { question: 'Who is the primary contact of the Starlight Cinemas booking?', answer: 'Sarah Johnson' },
  { question: 'What are the payment terms of the Premier Entertainment Group agency?', answer: 'Net 30' },
  { question: 'Who prepared the inventory reconciliation report?', answer: 'Sarah Martinez' },
  { question: 'What is the total variance cost in the inventory report?', answer: '$4,287.50' },
  { question: 'Which policy number does the insured Bruce Wayne have?', answer: 'IM-BATMAN' },
  { question: 'What is the claim number for Gabriel Diaz repair estimate?', answer: 'SF-1008' },
  {
    question: 'By how much can tuning inference parameters improve untuned gpt-4 accuracy in math?',
    answer: '20%',
  },
  {
    question: 'What is AutoGen, the open-source framework for multi-agent conversation?',
    answer: 'open-source framework',
  },
  { question: 'What does the notebook cell print(42) output?', answer: '42' },
  { question: 'Which warehouse is the inventory reconciliation for?', answer: 'Distribution Center East' },
]

const cities = ['Lisbon', 'Oslo', 'Quito', 'Nairobi', 'Hanoi', 'Tbilisi', 'Porto', 'Dakar', 'Lima', 'Riga']

/** A fact planted in generated document `index` (every 50th one), and the question that asks for it. */
export function plantedFact(index: number): { sentence: string; question: Question } | undefined {
  if (index % 50 !== 7) return undefined
  const city = cities[((index / 50) % cities.length) | 0]!
  const code = `PX-${(index * 7919) % 100_000}`
  return {
    sentence: `Facilities note: the badge code for the ${city} satellite office (building ${index}) is ${code}.`,
    question: {
      question: `What is the badge code for the ${city} satellite office in building ${index}?`,
      answer: code,
    },
  }
}
