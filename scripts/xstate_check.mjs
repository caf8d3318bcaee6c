#!/usr/bin/env node
// The XState half of issue 20's proof: a machine that `loopconv convert --to xstate` wrote
// is run by the real libraries (`xstate` and `@xstate/graph` from tools/node_modules,
// installed by scripts/install-tools.sh) and compared with loopconv's own analysis.
//
//   node scripts/xstate_check.mjs --machine M.json --ir IR.json --paths PATHS.json --walks WALKS.json
//
//   M.json      the machine (`loopconv convert LOOP --to xstate`)
//   IR.json     the same loop as loopconv's IR (`loopconv convert LOOP --to ir`): what the
//               machine must hold, read independently of the machine
//   PATHS.json  `loopconv paths LOOP --format json`
//   WALKS.json  [{"outcomes": [...], "decisions": [["checkpoint", "approve"|"reject"], ...],
//                 "walk": <stdout of `loopconv walk LOOP ... --format json`>}, ...]
//               (decisions in command-line order; each checkpoint takes its own in order)
//
// Prints one line per check passed; on the first difference it prints what differs on
// standard error and exits 1 (2 for a usage error, 3 when the libraries are not installed).
//
// What is compared:
//  a. `createMachine(config)` accepts the machine, and `createActor(machine).start()` is in
//     the entry phase's state, or in the gate of its first checkpoint when it has one. The
//     machine's states are the IR's: one per phase (key = phase id, `description` = the
//     objective, literally), one gate per checkpoint (`meta.checkpoint`), and each event
//     goes where the IR says (an edge into a gated phase to its first gate, gates chained
//     in authored order, REJECT to `on_reject`); terminals are found by `output.status`.
//     Outcome descriptions written as `{target, description}` are the IR's, literally.
//     The machine's guards and actions (counters in `context`) are given the
//     implementations the module of `--module js` holds; every phase state's step limit is
//     the loop's `max_steps` (100 without one).
//  b. `@xstate/graph`'s `getShortestPaths` (events: every outcome plus APPROVE and REJECT)
//     reaches the terminal final states whose statuses are those of loopconv's shortest
//     runs. Both are breadth-first over transitions (a phase's outcome or a gate's decision
//     is one step), so for each terminal the number of events and the number of phase
//     states on XState's path equal those of loopconv's shortest run, a REAL/VEAL run's
//     repeated attempts included: the machine counts them, and a REAL/VEAL escalation is
//     reached only after `max_attempts` evaluations.
//  c. Each walk's script is sent to an actor as the harness would: a phase state takes the
//     next outcome, a gate the next decision for its checkpoint. The phases visited and the
//     decisions taken equal the walk's steps (a failure token is the event TOOL_FAILURE or
//     PHASE_FAILURE), and the end agrees: `ended`, `aborted`, `handed_off`, `failed` and
//     `limit_reached` are the actor done in the final state with that `output.status` (a
//     terminal's, or one of loopconv's enforcement: the step limit, a failure);
//     `approval_required` is the actor waiting in the gate of the walk's checkpoint with no
//     decision left. A runtime ceiling stricter than the loop's `max_steps` is the
//     harness's: the replay stops there, the actor still running in the phase the walk
//     stopped before.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const TOOLS = process.env.LOOPCONV_TOOLS_DIR ?? new URL('../tools/', import.meta.url).pathname;

function fail(message) {
  process.stderr.write(`xstate_check: ${message}\n`);
  process.exit(1);
}

function libraries() {
  const require = createRequire(`${TOOLS.replace(/\/?$/, '/')}package.json`);
  try {
    return { xstate: require('xstate'), graph: require('@xstate/graph') };
  } catch (e) {
    process.stderr.write(`xstate_check: xstate or @xstate/graph is not installed in ${TOOLS}: ${e.message}\n`);
    process.exit(3);
  }
}

function args(argv) {
  const want = ['--machine', '--ir', '--paths', '--walks'];
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!want.includes(argv[i]) || argv[i + 1] === undefined) {
      process.stderr.write(`usage: xstate_check.mjs ${want.map((w) => `${w} FILE`).join(' ')}\n`);
      process.exit(2);
    }
    out[argv[i].slice(2)] = JSON.parse(readFileSync(argv[i + 1], 'utf8'));
  }
  for (const w of want) {
    if (!(w.slice(2) in out)) {
      process.stderr.write(`xstate_check: missing ${w} FILE\n`);
      process.exit(2);
    }
  }
  return out;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const show = (v) => JSON.stringify(v);
const TERMINAL_STATUS = { $end: 'ended', $abort: 'aborted', $handoff: 'handed_off' };

// ---- the machine's states, classified as the format says --------------------------------

/// `{phases: Map id->key, gates: Map checkpoint->key, finals: Map status->key, kind(key)}`.
function classify(config) {
  const phases = new Map();
  const gates = new Map();
  const finals = new Map();
  const enforced = new Map();
  const kinds = new Map();
  for (const [key, s] of Object.entries(config.states ?? {})) {
    if (s.type === 'final' && s.meta?.enforced === true) {
      enforced.set(s.output?.status, key);
      kinds.set(key, 'enforced');
    } else if (s.type === 'final') {
      const status = s.output?.status;
      if (finals.has(status)) fail(`two final states have output.status ${show(status)}`);
      finals.set(status, key);
      kinds.set(key, 'final');
    } else if ((s.tags ?? []).includes('checkpoint')) {
      gates.set(s.meta?.checkpoint, key);
      kinds.set(key, 'gate');
    } else {
      phases.set(key, key);
      kinds.set(key, 'phase');
    }
  }
  return { phases, gates, finals, enforced, kind: (key) => kinds.get(key) };
}

/// The IR's checkpoints of each phase, in authored order.
function checkpointsOf(ir) {
  const by = new Map();
  for (const c of ir.graph.checkpoints ?? []) {
    if (!by.has(c.before_phase)) by.set(c.before_phase, []);
    by.get(c.before_phase).push(c.id);
  }
  return by;
}

/// The state key an edge to IR node `to` (a phase id or `$end`...) must target.
function entryKey(m, gatesOf, to) {
  if (to in TERMINAL_STATUS) {
    const key = m.finals.get(TERMINAL_STATUS[to]);
    if (key === undefined) fail(`no final state has output.status ${show(TERMINAL_STATUS[to])} (for ${to})`);
    return key;
  }
  const first = (gatesOf.get(to) ?? [])[0];
  return first === undefined ? to : m.gates.get(first);
}

/// An event's target: the last candidate's for a list (the first ones are loopconv's
/// guarded escalation or retry; the last is the loop's transition).
function targetOf(value) {
  if (Array.isArray(value)) return targetOf(value.at(-1));
  return typeof value === 'string' ? value : value?.target;
}

// The implementations of the guards and actions a machine names (the same as the module
// of `--module js` holds): counters in `context`.
function counters(xstate) {
  return {
    guards: {
      above: ({ context }, { counter, max }) => context[counter] > max,
      below: ({ context }, { counter, max }) => context[counter] < max,
      reached: ({ context }, { counter, max }) => context[counter] >= max,
    },
    actions: {
      count: xstate.assign(({ context }, { counter }) => ({ [counter]: context[counter] + 1 })),
      reset: xstate.assign((_, { counter }) => ({ [counter]: 0 })),
    },
  };
}

/// The machine's own step limit: the bound of its phase states' `always` guard, the same
/// for every phase, and the loop's `max_steps` (100 without one).
function stepLimit(config, ir, m) {
  const want = ir.bounds?.max_steps ?? 100;
  for (const key of m.phases.keys()) {
    const always = config.states[key].always;
    const max = always?.[0]?.guard?.params?.max;
    if (max !== want || always[0].target !== m.enforced.get('limit_reached')) {
      fail(`state ${show(key)}: the step limit is ${show(always)}, not ${want} to the limit_reached final state`);
    }
  }
  return want;
}

function checkStructure(config, ir, m) {
  const gatesOf = checkpointsOf(ir);
  if (config.id !== ir.name) fail(`machine id ${show(config.id)} is not the loop name ${show(ir.name)}`);
  const ids = ir.graph.phases.map((p) => p.id);
  if (!same([...m.phases.keys()].sort(), [...ids].sort())) {
    fail(`phase states ${show([...m.phases.keys()])} are not the phases ${show(ids)}`);
  }
  for (const p of ir.graph.phases) {
    const s = config.states[p.id];
    if (s.description !== p.objective) {
      fail(`state ${show(p.id)}: description ${show(s.description)} is not the objective ${show(p.objective)}`);
    }
    for (const o of p.outcomes ?? []) {
      const v = s.on?.[o.id];
      if (typeof v === 'object' && v !== null && 'description' in v && v.description !== o.description) {
        fail(`state ${show(p.id)}, event ${show(o.id)}: description ${show(v.description)} is not ${show(o.description)}`);
      }
    }
  }
  for (const t of ir.graph.transitions) {
    const got = targetOf(config.states[t.from]?.on?.[t.on]);
    const want = entryKey(m, gatesOf, t.to);
    if (got !== want) fail(`${t.from} --${t.on}--> ${t.to}: the machine targets ${show(got)}, not ${show(want)}`);
  }
  for (const c of ir.graph.checkpoints ?? []) {
    const key = m.gates.get(c.id);
    if (key === undefined) fail(`no gate state has meta.checkpoint ${show(c.id)}`);
    const chain = gatesOf.get(c.before_phase);
    const next = chain[chain.indexOf(c.id) + 1];
    const approve = next === undefined ? c.before_phase : m.gates.get(next);
    const on = config.states[key].on ?? {};
    if (targetOf(on.APPROVE) !== approve) fail(`gate ${show(key)}: APPROVE targets ${show(targetOf(on.APPROVE))}, not ${show(approve)}`);
    const reject = entryKey(m, gatesOf, c.on_reject);
    if (targetOf(on.REJECT) !== reject) fail(`gate ${show(key)}: REJECT targets ${show(targetOf(on.REJECT))}, not ${show(reject)}`);
  }
  if (m.gates.size !== (ir.graph.checkpoints ?? []).length) {
    fail(`${m.gates.size} gate states for ${(ir.graph.checkpoints ?? []).length} checkpoints`);
  }
  const initial = entryKey(m, gatesOf, ir.graph.entry);
  if (config.initial !== initial) fail(`initial is ${show(config.initial)}, not ${show(initial)}`);
  return initial;
}

// ---- a. the library accepts and starts it ----------------------------------------------

function checkStart(xstate, config, initial) {
  let machine;
  try {
    machine = xstate.setup(counters(xstate)).createMachine(config);
  } catch (e) {
    fail(`createMachine refused the machine: ${e.message}`);
  }
  const actor = xstate.createActor(machine).start();
  const snap = actor.getSnapshot();
  actor.stop();
  if (snap.value !== initial) fail(`the started actor is in ${show(snap.value)}, not ${show(initial)}`);
  return machine;
}

// ---- b. shortest paths ------------------------------------------------------------------

/// Every event of the machine but the failures: each state's `on` keys (outcomes,
/// APPROVE, REJECT).
function allEvents(config) {
  const types = new Set(['APPROVE', 'REJECT']);
  for (const s of Object.values(config.states)) for (const e of Object.keys(s.on ?? {})) types.add(e);
  types.delete('TOOL_FAILURE');
  types.delete('PHASE_FAILURE');
  return [...types].sort().map((type) => ({ type }));
}

// A state for the shortest paths: where the machine is and the counters that change what
// it allows next (attempts, retries); the step count is left out, so that the search does
// not visit each state once per step count (breadth-first, a state's first visit has the
// fewest steps).
const serializeState = (s) => JSON.stringify([s.value, s.context?.attempts ?? 0, s.context?.retries ?? 0]);

/// `status -> {events, phases}` of @xstate/graph's shortest path to each final state.
function xstatePaths(graph, machine, config, m) {
  const out = new Map();
  for (const path of graph.getShortestPaths(machine, { events: allEvents(config), serializeState })) {
    if (path.state.status !== 'done' || m.kind(path.state.value) !== 'final') continue;
    const key = path.state.value;
    const status = config.states[key].output?.status;
    const phases = path.steps.filter((s) => m.kind(s.state.value) === 'phase').length;
    const evals = path.steps.filter((s) => s.state.value === 'eval' && m.kind('eval') === 'phase').length;
    // A final state is reached with different counters by different paths: the shortest.
    if (out.has(status) && out.get(status).events <= path.steps.length - 1) continue;
    out.set(status, { events: path.steps.length - 1, phases, evals, states: path.steps.map((s) => s.state.value) });
  }
  return out;
}

/// A loopconv run's departure nodes (`P:id`, `G:id`), every step (the machine counts the
/// attempts, so a REAL/VEAL run repeats its cycles there too).
function runNodes(run) {
  return run.steps.map((step) => {
    if ('failure' in step) fail(`a shortest run holds a failure step: ${show(step)}`);
    return 'checkpoint' in step ? `G:${step.checkpoint}` : `P:${step.phase}`;
  });
}

function checkShortest(graph, machine, config, m, paths, ir) {
  const mine = xstatePaths(graph, machine, config, m);
  const theirs = new Map(paths.shortest.map((r) => [r.status, r]));
  const a = [...mine.keys()].sort();
  const b = [...theirs.keys()].sort();
  if (!same(a, b)) fail(`@xstate/graph reaches final statuses ${show(a)}, loopconv paths ${show(b)}`);
  for (const [status, run] of theirs) {
    const nodes = runNodes(run);
    const phases = nodes.filter((n) => n.startsWith('P:')).length;
    const x = mine.get(status);
    if (x.events !== nodes.length || x.phases !== phases) {
      fail(`to ${status}: @xstate/graph's shortest path ${show(x.states)} has ${x.events} events and ${x.phases} phase states; ` +
        `loopconv's shortest run ${show(nodes)} has ${nodes.length} steps and ${phases} phase steps`);
    }
    console.log(`ok shortest path to ${status}: ${x.phases} phase steps, ${x.events} events`);
  }
  // REAL/VEAL: the escalation is reached only after max_attempts failed evaluations.
  if (ir.pattern === 'real' || ir.pattern === 'veal') {
    const attempts = ir.bounds?.max_attempts ?? 3;
    const escalate = ir.graph.transitions.find((t) => t.from === 'eval' && t.on === 'escalate');
    const status = TERMINAL_STATUS[escalate?.to];
    const x = mine.get(status);
    const viaEscalation = paths.shortest.find((r) => r.status === status)?.steps.at(-1)?.outcome === 'escalate';
    if (viaEscalation) {
      if (x.evals !== attempts) fail(`@xstate/graph escalates to ${status} after ${x.evals} evaluations, not max_attempts ${attempts}`);
      console.log(`ok escalation to ${status} only after ${attempts} failed evaluations (max_attempts)`);
    }
  }
}

// ---- c. scripted actor runs -------------------------------------------------------------

/// Send a walk's script to a fresh actor; what it visited and where it stopped.
function replay(xstate, machine, config, m, entry) {
  const outcomes = [...entry.outcomes];
  const decisions = new Map();
  for (const [id, d] of entry.decisions) {
    if (!decisions.has(id)) decisions.set(id, []);
    decisions.get(id).push(d);
  }
  // The machine enforces its own limit; a stricter runtime ceiling is the harness's.
  const limit = entry.walk.max_steps < m.limit ? entry.walk.max_steps : Infinity;
  const actor = xstate.createActor(machine).start();
  const steps = [];
  let end;
  for (;;) {
    const snap = actor.getSnapshot();
    const key = snap.value;
    if (snap.status === 'done') { end = { status: config.states[key].output?.status, key, enforced: m.kind(key) === 'enforced' }; break; }
    if (m.kind(key) === 'gate') {
      const id = config.states[key].meta.checkpoint;
      const d = (decisions.get(id) ?? []).shift();
      if (d === undefined) { end = { status: 'approval_required', key, checkpoint: id }; break; }
      steps.push(['checkpoint', id, d]);
      actor.send({ type: d === 'approve' ? 'APPROVE' : 'REJECT' });
      continue;
    }
    if (steps.filter((s) => s[0] === 'phase').length >= limit) { end = { status: 'limit_reached', key }; break; }
    const o = outcomes.shift();
    if (o === undefined) { end = { status: 'script_exhausted', key }; break; }
    const type = { '@tool-failure': 'TOOL_FAILURE', '@phase-failure': 'PHASE_FAILURE' }[o] ?? o;
    if (!snap.can({ type })) { end = { status: 'outcome_refused', key, outcome: o }; break; }
    actor.send({ type });
    // The failing verdict at the last attempt took the guarded candidate to the escalation's
    // target: walk records that step as `escalate`.
    const on = config.states[key].on?.[type];
    const escalated = Array.isArray(on) && on.length === 2 && on[0].guard?.params?.counter === 'attempts' &&
      actor.getSnapshot().value === on[0].target && on[0].target !== on[1].target;
    steps.push([o.startsWith('@') ? 'failure' : 'phase', key, escalated ? 'escalate' : o]);
  }
  actor.stop();
  return { steps, end };
}

/// The walk's steps as the replay records them: a failure step per failure token (the
/// phase failure that a tool failure's `fail_phase` brings is the same token's).
function walkSteps(walk) {
  const out = [];
  walk.steps.forEach((s, i) => {
    if ('checkpoint' in s) out.push(['checkpoint', s.checkpoint, s.decision]);
    else if (s.failure === 'tool_failure') out.push(['failure', s.phase, '@tool-failure']);
    else if (s.failure === 'phase_failure') {
      const before = walk.steps[i - 1];
      if (!(before?.failure === 'tool_failure' && before.action === 'fail_phase')) out.push(['failure', s.phase, '@phase-failure']);
    } else out.push(['phase', s.phase, s.outcome]);
  });
  return out;
}

function checkWalk(xstate, machine, config, m, entry, n) {
  const { walk } = entry;
  const got = replay(xstate, machine, config, m, entry);
  const want = walkSteps(walk);
  const where = `walk ${n} (${walk.status})`;
  if (!same(got.steps, want)) fail(`${where}: the actor took ${show(got.steps)}, loopconv walk ${show(want)}`);
  if (got.end.status !== walk.status) fail(`${where}: the actor ended ${show(got.end)}`);
  if (walk.status === 'approval_required' && got.end.checkpoint !== walk.checkpoint) {
    fail(`${where}: the actor waits at checkpoint ${show(got.end.checkpoint)}, the walk at ${show(walk.checkpoint)}`);
  }
  if (walk.status === 'limit_reached' && !got.end.enforced) {
    const next = walk.steps.at(-1)?.to;
    if (got.end.key !== next) fail(`${where}: the actor stopped in ${show(got.end.key)}, the walk before ${show(next)}`);
  }
  console.log(`ok walk ${n}: ${walk.status} after ${want.length} steps (actor in ${show(got.end.key)})`);
}

function main() {
  const input = args(process.argv.slice(2));
  const { xstate, graph } = libraries();
  const config = input.machine;
  const m = classify(config);
  const initial = checkStructure(config, input.ir, m);
  m.limit = stepLimit(config, input.ir, m);
  console.log(`ok structure: ${m.phases.size} phases, ${m.gates.size} gates, finals ${show([...m.finals.keys()])}, step limit ${m.limit}`);
  const machine = checkStart(xstate, config, initial);
  console.log(`ok createMachine, createActor starts in ${show(initial)}`);
  checkShortest(graph, machine, config, m, input.paths, input.ir);
  if (!Array.isArray(input.walks) || input.walks.length === 0) fail('no walks to replay');
  input.walks.forEach((w, i) => checkWalk(xstate, machine, config, m, w, i + 1));
}

main();
