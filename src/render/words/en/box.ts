/** What a learner's box is told, and what is said about it (src/box): values it hands the harness, its walls. */
export const box = {
  'box.value.notObject': '{field} is not an object',
  'box.value.wrong': '{field} is not {expected}',
  'box.value.aString': 'a string',
  'box.value.aCount': 'a whole number (0 or more)',
  'box.value.nullOrObject': 'null or an object',
  'box.value.tooDeep': '{field} nests deeper than {max} levels',
  'box.value.stepReturned': 'step returned a state faultlab cannot take: {problem}',
  'box.value.call': '{call} was handed a value faultlab cannot take: {problem}',
  'box.value.notSendable': 'step returned a state that cannot be sent to the grader: {why}',
  'box.shipped.title': "{file} is faultlab's own runner, not the learner's",
  'box.shipped.reference': "{file} hands in faultlab's ReferenceRunner (src/runner/ReferenceRunner.ts) — re-exported, extended or taken from the package — instead of a step of its own: not graded",
  'box.shipped.mutant': "{file} hands in one of faultlab's mutants (src/mutants/, deliberately broken runners) instead of a step of its own: not graded",
} as const;
