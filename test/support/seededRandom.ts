/** A seeded pseudo-random generator (mulberry32): the same numbers in [0, 1) for the same seed. */
export { mulberry32 as seededRandom } from '../../scripts/seededWeights'
