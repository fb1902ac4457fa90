/** Synthetic but realistic memories and queries for the search speed benchmark (deterministic). */
const PEOPLE = [
  "Alice",
  "Bob",
  "Carmen",
  "Dmitri",
  "Elena",
  "Farid",
  "Grace",
  "Hiro",
  "Ines",
  "Jonas",
  "Kemal",
  "Lucia",
  "Maya",
  "Noah",
  "Olga",
  "Pavel",
];
const ACTIONS = [
  "met",
  "called",
  "emailed",
  "visited",
  "argued with",
  "had lunch with",
  "interviewed",
  "thanked",
  "helped",
  "planned a trip with",
];
const OBJECTS = [
  "the plumber",
  "the landlord",
  "a recruiter",
  "the dentist",
  "an old friend",
  "the project manager",
  "the bank advisor",
  "a neighbour",
  "the coach",
  "the vet",
];
const PLACES = [
  "at the train station",
  "in the office",
  "at the harbour",
  "near the museum",
  "at the gym",
  "in the park",
  "at the airport",
  "in a small cafe",
  "at the hospital",
  "downtown",
];
const TIMES = [
  "on Monday",
  "last weekend",
  "this morning",
  "yesterday evening",
  "in early May",
  "after the holidays",
  "on Friday night",
  "during the conference",
  "before the deadline",
  "at noon",
];
const TOPICS = [
  "to discuss the leaking roof",
  "about the quarterly budget",
  "to plan the wedding",
  "about a new job offer",
  "to fix the broken laptop",
  "about the kids' school",
  "to renew the passport",
  "about the marathon training",
  "to compare insurance quotes",
  "about moving to Lisbon",
  "to review the contract",
  "about the garden project",
];
const FOLLOWUPS = [
  "It went well.",
  "We agreed to meet again.",
  "Nothing was decided.",
  "I need to follow up next week.",
  "It was stressful.",
  "Everyone was happy with it.",
  "",
];

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const pick = <X>(r: () => number, xs: X[]) => xs[Math.floor(r() * xs.length)]!;

export function sentence(i: number): string {
  const r = rng(i * 7919 + 13);
  const start = `${pick(r, PEOPLE)} ${pick(r, ACTIONS)} ${pick(r, OBJECTS)}`;
  return `${start} ${pick(r, PLACES)} ${pick(r, TIMES)} ${pick(r, TOPICS)}. ${pick(r, FOLLOWUPS)}`.trim();
}

/** Queries with enough slots (~10^5 combinations) that a benchmark run rarely repeats one (no cache hits). */
export function query(i: number): string {
  const r = rng(i * 104729 + 7);
  const forms = [
    () => `When did ${pick(r, PEOPLE)} meet ${pick(r, OBJECTS)} ${pick(r, PLACES)} ${pick(r, TOPICS)}?`,
    () => `What did ${pick(r, PEOPLE)} and ${pick(r, OBJECTS)} say ${pick(r, TIMES)} ${pick(r, TOPICS)}?`,
    () => `Who was ${pick(r, PLACES)} ${pick(r, TIMES)} with ${pick(r, PEOPLE)}?`,
  ];
  return pick(r, forms)();
}
