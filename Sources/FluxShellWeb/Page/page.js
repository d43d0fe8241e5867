"use strict";
// The devtools page: a tab of a fluxsh session. Everything it does is a command of the session,
// sent over the attach protocol (one JSON line each way); it draws what the answers say.

const $ = (role) => document.querySelector(`[data-role="${role}"]`);
const token = new URLSearchParams(location.search).get("token") || "";
const ROW = 22;

const page = {
  socket: null,
  /** Commands sent and not yet answered with `done`: each collects its output objects. */
  waiting: [],
  /** Who waits for the answers to `{"complete":…}` requests, in the order they were asked. */
  completing: [],
  /** Who waits for the answers to `{"stateAfter":N}` requests, in order. */
  stepStates: [],
  /** Who waits for the answers to `{"open":…}` requests, in order. */
  opening: [],
  /** The loaded stores' aliases, when there are several: the tree shows each one's state. */
  aliases: [],
  /** `history`'s steps, oldest first: {number, action, undone, followUps?}. */
  steps: [],
  /** What the page saw of each step: its changes, follow-ups and the state after it. */
  seen: new Map(),
  selected: null,
  /** The number of steps not undone: where the stores are. */
  done: 0,
  /** What the commands and the app printed since the last reading of the session. */
  made: [],
  reading: null,
  readAgain: false,
  state: undefined,
  prompt: "> ",
};

// MARK: - The wire

function connect() {
  const socket = new WebSocket(`ws://${location.host}/socket?token=${encodeURIComponent(token)}`);
  page.socket = socket;
  socket.onopen = () => {
    // NB: `writesSaves`: `save FILE` hands the scenario to the page, which downloads it.
    // `steps`: each step's output names its number in `history`, which pairs it with its row.
    socket.send(JSON.stringify({
      fluxsh: 1, format: "json", colors: false, interactive: false, file: "<web>", writesSaves: true, steps: true,
    }));
  };
  socket.onmessage = (event) => receive(parseJSON(event.data));
  socket.onclose = () => ended(page.endReason || "the session ended (the shell that served this page stopped)");
}

function receive(frame) {
  if ("attached" in frame) {
    page.prompt = frame.prompt;
    page.name = frame.attached;
    showPrompt();
    refresh();
  } else if ("out" in frame || "err" in frame) {
    const text = frame.out ?? frame.err;
    let object;
    try { object = parseJSON(text); } catch { object = { text }; }
    if (page.waiting.length) page.waiting[0].objects.push(object);
  } else if ("app" in frame) {
    let object;
    try { object = parseJSON(frame.app); } catch { object = { text: frame.app }; }
    appStep(object);
  } else if ("save" in frame) {
    download(frame.save, frame.scenario);
    for (const line of frame.saved || []) {
      let object;
      try { object = parseJSON(line); } catch { object = { text: line }; }
      if (page.waiting.length) page.waiting[0].objects.push(object);
    }
  } else if ("done" in frame) {
    page.prompt = frame.prompt;
    showPrompt();
    const command = page.waiting.shift();
    if (command) command.resolve({ objects: command.objects, failed: frame.failed });
  } else if ("stateAfter" in frame) {
    page.stepStates.shift()?.(frame);
  } else if ("opened" in frame) {
    page.opening.shift()?.(frame);
  } else if ("completions" in frame) {
    page.completing.shift()?.(frame);
  } else if ("bye" in frame) {
    page.endReason = frame.bye;
  }
}

/** Runs a command line of the session; resolves with its output objects once it is done. */
function run(line) {
  return new Promise((resolve) => {
    if (!page.socket || page.socket.readyState !== WebSocket.OPEN) return resolve({ objects: [], failed: true });
    page.waiting.push({ objects: [], resolve });
    // NB: no command begins with `{`: after a space, such a line is run (and refused) as a
    // command, not taken for a request such as `{"complete":…}`, which gets no `done`.
    page.socket.send(line.startsWith("{") ? " " + line : line);
  });
}

/** `save FILE`: the scenario, as a download named as the file. */
function download(file, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  link.download = file.split("/").pop() || "session.scenario";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

/** Sends a request (`{"complete":…}`, `{"stateAfter":…}`), answered in order to those `waiting`;
 * resolves with its answer, or with `closed` when the session's socket is not open. */
function request(waiting, message, closed) {
  return new Promise((resolve) => {
    if (!page.socket || page.socket.readyState !== WebSocket.OPEN) return resolve(closed);
    waiting.push(resolve);
    page.socket.send(JSON.stringify(message));
  });
}

/** Each loaded store's state after step `number`, as the engine keeps it for undo: no travel. */
const stateAfter = (number) => request(page.stepStates, { stateAfter: number }, { error: "the session ended" });

const complete = (text) => request(page.completing, { complete: text }, { completions: [] });

/** The page's server takes messages up to 1 MiB: a scenario and its framing fit in that. */
const OPEN_LIMIT = (1 << 20) - 4096;

/** Opens a scenario file in place of the session: its lines run where the session runs, then it
 * waits paused at its first step; later steps are redone from the states kept, so no effect runs
 * again. A line that fails leaves the session as it was. */
async function openScenario(file) {
  showError(null);
  const message = { open: await file.text(), file: file.name };
  // NB: measured as sent: the text escaped in its JSON message.
  if (new TextEncoder().encode(JSON.stringify(message)).length > OPEN_LIMIT) {
    showError(`error: ${file.name} is ${(file.size / 1048576).toFixed(1)} MiB; the page opens scenarios up to 1 MiB (read it in the shell instead: read ${file.name})`);
    return;
  }
  const answer = await request(page.opening, message, { open: false, errors: [JSON.stringify({ error: "the session ended" })] });
  const errors = (answer.errors || []).map((line) => {
    const error = parseJSON(line);
    const where = error.line ? `${error.file || file.name}:${error.line}: ` : "";
    return `error: ${where}${error.error}`;
  });
  print(`(open ${file.name})`, answer.open
    ? [{ text: `opened ${file.name}: ${answer.steps === 1 ? "1 step" : `${answer.steps} steps`}, paused at the first` }]
    : [{ text: `${file.name} was not opened: the session is as it was` }]);
  if (errors.length) showError(errors.join("\n"));
  if (!answer.open) return;
  if (answer.prompt) page.prompt = answer.prompt;
  showPrompt();
  // NB: the steps are the scenario's now: what the page saw of the session before goes.
  page.steps = [];
  page.seen = new Map();
  page.selected = null;
  page.made = [];
  await refresh();
  select(page.steps.length ? page.steps[0].number : null);
  page.onOpened?.(answer);
}

function ended(reason) {
  const box = $("ended");
  // NB: `quit` (or `detach`) leaves this tab's session only: the server serves on.
  box.textContent = reason === "detached"
    ? "detached: this tab left its session; the server goes on serving the page (reload to open another)"
    : reason;
  box.hidden = false;
  $("command").disabled = true;
}

// MARK: - Commands typed, and what they print

/** What changes state: after it, the timeline and the tree are read again. */
const STEP_COMMANDS = new Set([
  "dispatch", "undo", "redo", "reset", "advance", "load", "use", "cancel", "skip", "unskip", "replace", "commit", "sweep",
]);

async function submit(line) {
  if (!line.trim()) return;
  showError(null);
  const result = await run(line);
  print(line, result.objects);
  const errors = result.objects.filter((object) => "error" in object);
  if (errors.length) showError(errors.map((object) => `error: ${object.error}`).join("\n"));
  // NB: a `!` line makes no step, unless its command succeeded and what it did stands (attached,
  // `! advance`): one that failed changed nothing, and what one took back is not in `history`.
  const stands = errors.some((object) => object.error.includes("what it did stands"));
  const made = line.trim().startsWith("!") && !stands
    ? undefined
    : result.objects.find((object) => typeof object.step === "number");
  const word = line.trim().replace(/^!\s*/, "").split(/\s+/)[0];
  // NB: the page keeps the steps the history forgot by its limit; those `commit` forgot go.
  if (word === "commit" && !errors.length) page.steps = [];
  if (STEP_COMMANDS.has(word) || made) await refresh(made, true);
  page.onCommand?.(line);
}

function print(line, objects) {
  const output = $("output");
  const block = document.createElement("div");
  const command = document.createElement("div");
  command.className = "command";
  command.textContent = page.prompt + line;
  block.append(command);
  for (const object of objects) block.append(...rendered(object));
  output.append(block);
  while (output.childElementCount > 200) output.firstElementChild.remove();
  output.scrollTop = output.scrollHeight;
}

/** An output object as the shell's text would show it. */
function rendered(object) {
  const lines = [];
  const text = (content, className) => {
    const element = document.createElement("div");
    if (className) element.className = className;
    element.textContent = content;
    lines.push(element);
  };
  if ("error" in object) text(`error: ${object.error}`, "op-remove");
  else if (object.changes || object.followUps) lines.push(...diffLines(object, true));
  else if ("text" in object) text(object.text);
  else if (object.command === "state") text(JSON.stringify(object.value, null, 2));
  else if (object.actions) object.actions.forEach((action) => text(action));
  else if (object.stores) object.stores.forEach((store) => text(`${store.name}  ${store.summary}`));
  else if (object.history) object.history.forEach((step) => text(`${step.number}  ${step.action}${mark(step)}`));
  else if (object.steps) {
    const width = String(object.steps.length ? object.steps[object.steps.length - 1].number : 0).length;
    object.steps.forEach((step) => lines.push(...whyStep(step, width)));
  }
  else if (object.watches) object.watches.forEach((path) => text(path));
  else if (object.found) {
    if (object.found.length === 0) text("(nothing found)");
    object.found.forEach((place) => text(`${place.path}: ${compact(place.value)}`));
  } else if (object.effects) effectLines(object).forEach((line) => text(line));
  else if (object.command === "save") text(`saved ${object.file} (downloaded by the browser)`);
  else if (object.command === "commit") {
    text(`(${object.forgotten === 1 ? "1 step" : `${object.forgotten} steps`} forgotten: the history starts here)`);
  } else if (object.command === "sweep") {
    text(object.removed.length === 0
      ? "(no step is skipped or replaced: nothing to sweep)"
      : `(removed step${object.removed.length === 1 ? "" : "s"} ${object.removed.join(", ")})`);
  }
  else if (Object.keys(object).some((key) => !["line", "command", "store", "alias"].includes(key))) {
    text(JSON.stringify(object));
  }
  return lines;
}

const compact = (value) => JSON.stringify(value);

/** JSON.parse that keeps each number as the shell printed it (`14.0` stays `14.0`, not `14`),
 * where the browser reads a number's source text (JSON.rawJSON); JSON.stringify writes it back
 * as it came. */
const parseJSON = JSON.rawJSON
  ? (text) => JSON.parse(text, (key, value, context) =>
    typeof value === "number" && context && context.source !== String(value) ? JSON.rawJSON(context.source) : value)
  : (text) => JSON.parse(text);

/** A value the tree shows on one line: not an object or array (a number kept as printed is one). */
const isScalar = (value) => value === null || typeof value !== "object" || Boolean(JSON.isRawJSON?.(value));

/** A nested action by its path of cases, as Redux DevTools shows one: `syncUps {"element":{"id":
 * "…0001","action":{"recordMeeting":{…}}}}` is `syncUps › element(…0001) › recordMeeting`. An
 * action whose argument is not one JSON object of cases stays as `history` writes it. */
function actionLabel(text) {
  const space = text.indexOf(" ");
  if (space < 0 || !"{[".includes(text[space + 1])) return text;
  let value;
  try { value = JSON.parse(text.slice(space + 1)); } catch { return text; }
  const path = [text.slice(0, space)];
  // NB: a string is a case (one without payload) where an `action` holds it, else a payload.
  let caseHere = false;
  for (let depth = 0; depth < 16; depth++) {
    if (typeof value === "string" && caseHere) {
      path.push(value);
      break;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) break;
    const keys = Object.keys(value);
    caseHere = false;
    if (keys.length === 1 && /^_\d+$/.test(keys[0])) {
      value = value[keys[0]];
    } else if (keys.length === 1) {
      path.push(keys[0]);
      value = value[keys[0]];
    } else if (keys.length === 2 && "id" in value && "action" in value) {
      path[path.length - 1] += `(…${String(value.id).slice(-4)})`;
      value = value.action;
      caseHere = true;
    } else {
      break;
    }
  }
  return path.length > 1 ? path.join(" › ") : text;
}

/** What `history` writes after a step's action: undone, skipped, or replaced by a later step. */
function mark(step) {
  if (step.undone) return "   (undone)";
  if (step.skipped) return "   (skipped)";
  return step.replacedAt ? `   (replaced at step ${step.replacedAt})` : "";
}

// The lines `effects` prints, as the shell writes them.
function effectLines(object) {
  if (object.attached) return ["(the attached app's effects run on its own clock: the shell neither lists nor advances them)"];
  if (object.effects.length === 0) return ["(no effects running)"];
  return object.effects.map((effect) => {
    let head = effect.line ? `effect ${effect.number} (line ${effect.line}: ${effect.action})` : `effect ${effect.number} (${effect.action})`;
    if (effect.ids && effect.ids.length) head += effect.ids.length === 1 ? `, id ${effect.ids[0]}` : `, ids ${effect.ids.join(", ")}`;
    const status = effect.waitsFor !== null
      ? `waits ${effect.waitsFor} s on the clock${effect.cancelled ? ", cancelled" : ""}`
      : effect.cancelled ? "cancelled, still ending" : "running";
    return `${head}: ${status}`;
  });
}

function changeLine(change) {
  const element = document.createElement("div");
  if (change.op === "+") {
    element.className = "op-add";
    element.textContent = `+ ${change.path}: ${compact(change.new)}`;
  } else if (change.op === "-") {
    element.className = "op-remove";
    element.textContent = `- ${change.path}: ${compact(change.old)}`;
  } else {
    element.className = "op-change";
    element.textContent = `~ ${change.path}: ${compact(change.old)} -> ${compact(change.new)}`;
  }
  return element;
}

/** A step's diff lines: its own changes, then each follow-up (`=> ACTION`) with its own. With
 * `watching`, the changes the watches leave out (`"hidden":true`) are counted in a last
 * `(N more changes)`, as the shell prints them; the inspector shows the whole diff. */
function diffLines(object, watching = false) {
  let hidden = 0;
  const shown = (changes) => (changes || []).filter((change) => {
    if (watching && change.hidden) hidden += 1;
    return !(watching && change.hidden);
  }).map(changeLine);
  const lines = shown(object.changes);
  if (object.changes && !object.changes.length && !object.followUps) {
    const none = document.createElement("div");
    none.className = "dim";
    none.textContent = "(no changes)";
    lines.push(none);
  }
  for (const followUp of object.followUps || []) {
    const head = document.createElement("div");
    head.className = "op-follow";
    head.textContent = `=> ${followUp.action}`;
    lines.push(head, ...shown(followUp.changes));
  }
  if (hidden) {
    const more = document.createElement("div");
    more.className = "dim";
    more.textContent = hidden === 1 ? "(1 more change)" : `(${hidden} more changes)`;
    lines.push(more);
  }
  return lines;
}

// A step of `why`, laid out as the shell prints it: the step's number, right-aligned to `width`
// digits, and its action; under it, indented, its lines and its follow-ups' lines.
function whyStep(step, width) {
  const head = document.createElement("div");
  const number = String(step.number);
  head.textContent = " ".repeat(width - number.length + 2) + `${number}  ${step.action}`;
  const indent = " ".repeat(width + 4);
  const lines = (step.changes || []).map(changeLine);
  for (const followUp of step.followUps || []) {
    const line = document.createElement("div");
    line.className = "op-follow";
    line.textContent = `=> ${followUp.action}`;
    lines.push(line, ...(followUp.changes || []).map(changeLine));
  }
  for (const line of lines) line.textContent = indent + line.textContent;
  return [head, ...lines];
}

function showError(message) {
  const box = $("error");
  box.hidden = !message;
  box.textContent = message || "";
}

function showPrompt() {
  $("prompt").textContent = page.prompt.trim() || ">";
  const store = page.prompt.replace(/>\s*$/, "");
  $("session").textContent = store && store !== page.name ? `${page.name} · ${store}` : page.name;
  document.title = $("session").textContent;
}

// MARK: - The timeline

/** Reads the history and the state again; `made` is what the command just run printed, and
 * `follow` selects the newest step after (a command typed here). While a reading is under way,
 * the next waits for it and then reads once for all that came meanwhile: an app that dispatches
 * a thousand actions a second costs a few readings, not a thousand. */
function refresh(made, follow) {
  if (made) page.made.push(made);
  if (follow) page.follow = made?.step ?? true;
  if (page.reading) {
    page.readAgain = true;
    return page.reading;
  }
  page.reading = (async () => {
    do {
      page.readAgain = false;
      const follow = page.follow;
      page.follow = false;
      await readSession(page.made.splice(0), follow);
    } while (page.readAgain);
    page.reading = null;
  })();
  return page.reading;
}

async function readSession(made, follow) {
  const [history, state, loaded] = await Promise.all([run("history"), run("state"), complete("use ")]);
  const listing = (history.objects.find((object) => object.history) || { history: [] }).history;
  // NB: with several stores, the tree holds each one's state under its alias, as diff lines
  // name them (`todos.todos[0]`); the active one's is read with no path, the others' by alias.
  page.aliases = (loaded.completions || []).length > 1 ? loaded.completions : [];
  const active = page.prompt.replace(/>\s*$/, "");
  const others = await Promise.all(
    page.aliases.filter((alias) => alias !== active).map((alias) => run(`state ${alias}`)));
  const before = new Set(page.steps.map((step) => step.number));
  // NB: the selection and the scroll follow new steps only when they were at the newest: a step
  // selected to jump to, or a place scrolled to, stays while the app dispatches.
  const newest = page.steps.length ? page.steps[page.steps.length - 1].number : null;
  const following = follow || page.selected == null || page.selected === newest;
  const timeline = $("timeline");
  const atEnd = timeline.scrollTop + timeline.clientHeight >= timeline.scrollHeight - ROW;
  // NB: `history` lists the steps the session keeps (the last 1,000); the page keeps those it
  // saw before them.
  const oldest = listing.length ? listing[0].number : Infinity;
  page.steps = page.steps.filter((step) => step.number < oldest).concat(listing);
  const value = state.objects.find((object) => object.command === "state");
  page.state = value ? value.value : undefined;
  if (page.aliases.length && value) {
    const states = {};
    let other = 0;
    for (const alias of page.aliases) {
      states[alias] = alias === active
        ? value.value : others[other++].objects.find((object) => object.command === "state")?.value;
    }
    page.state = states;
  }
  const fresh = page.steps.filter((step) => !before.has(step.number));
  // What made each step names its number (`steps` in the hello).
  for (const object of made) {
    if (typeof object.step !== "number") continue;
    page.seen.set(object.step, {
      changes: object.changes || [], followUps: object.followUps || [], app: object.event === "app", state: undefined,
    });
  }
  page.done = page.steps.filter((step) => !step.undone).length;
  const current = currentStep();
  if (current && page.seen.has(current.number)) page.seen.get(current.number).state = page.state;
  // A step the page's own command made is selected even when an earlier reading already listed it.
  const own = typeof follow === "number" && page.steps.some((step) => step.number === follow) ? follow : null;
  if (own != null) page.selected = own;
  else if (fresh.length && following) page.selected = fresh[fresh.length - 1].number;
  drawTimeline((fresh.length > 0 && atEnd) || follow);
  drawTree();
  inspect(page.selected);
  page.readAt = performance.now();
  page.onRead?.();
}

/** Readings that follow the app's own actions are at least this far apart (milliseconds). */
const APP_READINGS = 250;

function appStep(object) {
  // An action of the app (attached): it is a step of the history, read again soon. NB: an app that
  // dispatches thousands of actions a second gets a few readings a second, each of them work for
  // its agent (`history`, `state`); the page draws what they say.
  page.made.push(object);
  if (page.appTimer) return;
  const wait = Math.max(0, APP_READINGS - (performance.now() - (page.readAt || 0)));
  page.appTimer = setTimeout(() => {
    page.appTimer = null;
    refresh();
  }, wait);
}

/** The step the stores are at: the last one not undone. */
function currentStep() {
  // NB: undone steps are always the last ones: the step before them is where the stores are.
  return page.steps[page.done - 1];
}

function visibleSteps() {
  const filter = $("filter").value.trim().toLowerCase();
  if (!filter) return page.steps;
  return page.steps.filter((step) => {
    if (step.action.toLowerCase().includes(filter)) return true;
    const seen = page.seen.get(step.number);
    const changes = seen ? [...seen.changes, ...seen.followUps.flatMap((followUp) => followUp.changes || [])] : [];
    return changes.some((change) => change.path.toLowerCase().startsWith(filter));
  });
}

/** Draws only the rows in view: a timeline of 100,000 steps scrolls as one of ten. */
function drawTimeline(scrollToEnd) {
  const timeline = $("timeline");
  const steps = visibleSteps();
  timeline.querySelector(".spacer").style.height = `${steps.length * ROW}px`;
  if (scrollToEnd) timeline.scrollTop = timeline.scrollHeight;
  const first = Math.max(0, Math.floor(timeline.scrollTop / ROW) - 5);
  const last = Math.min(steps.length, first + Math.ceil(timeline.clientHeight / ROW) + 10);
  const current = currentStep();
  for (const row of [...timeline.querySelectorAll(".step")]) row.remove();
  const rows = document.createDocumentFragment();
  for (let index = first; index < last; index++) {
    const step = steps[index];
    const row = document.createElement("div");
    row.className = "step";
    row.dataset.step = step.number;
    row.style.top = `${index * ROW}px`;
    if (step.undone) row.classList.add("undone");
    if (step.skipped) row.classList.add("skipped");
    if (current && step.number === current.number) row.classList.add("current");
    if (step.number === page.selected) row.classList.add("selected");
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = step.number;
    const origin = document.createElement("span");
    origin.className = "origin";
    origin.textContent = page.seen.get(step.number)?.app ? "<=" : ">";
    const action = document.createElement("span");
    action.className = "action";
    action.textContent = actionLabel(step.action);
    // The skip toggle: on every step that dispatched actions, while it is not undone.
    const toggle = document.createElement("button");
    toggle.dataset.role = "skip";
    toggle.className = "skip";
    toggle.textContent = step.skipped ? "unskip" : "skip";
    toggle.title = step.skipped
      ? `unskip ${step.number}: put the step back and replay the later ones`
      : `skip ${step.number}: replay the later steps without this one (undo takes it back)`;
    toggle.hidden = !step.skippable || step.undone;
    // Replace: the command line gets `replace N ACTION`, to change and run.
    const replace = document.createElement("button");
    replace.className = "replace";
    replace.dataset.action = "replace";
    replace.textContent = "replace";
    replace.title = `replace ${step.number} …: put another action in this step and replay the later ones`;
    replace.hidden = !step.skippable || step.undone || step.skipped || step.action.startsWith("advance");
    row.append(toggle, replace, number, origin, action);
    if (step.replacedAt) {
      const replaced = document.createElement("span");
      replaced.className = "dim";
      replaced.textContent = `(replaced at step ${step.replacedAt})`;
      row.append(replaced);
    }
    // The follow-up actions the page saw it lead to: `=> ACTION`, after it.
    const followUps = (page.seen.get(step.number)?.followUps || []).map((followUp) => `=> ${followUp.action}`);
    if (followUps.length) {
      const led = document.createElement("span");
      led.className = "op-follow";
      led.textContent = followUps.join("  ");
      row.append(led);
    }
    row.title = [step.action, ...followUps].join("\n");
    rows.append(row);
  }
  timeline.append(rows);
  const slider = $("slider");
  slider.max = page.steps.length;
  slider.value = page.done;
  $("jump").disabled = page.selected == null;
}

/** `find TEXT` in the engine: each place found, a line that reveals it in the tree. */
async function findInState(text) {
  const results = $("find-results");
  if (!text) {
    results.hidden = true;
    return;
  }
  const reply = await run(`find ${JSON.stringify(text)}`);
  results.replaceChildren();
  const error = reply.objects.find((object) => "error" in object);
  const found = reply.objects.find((object) => object.found)?.found || [];
  if (error) results.append(line(`error: ${error.error}`, "op-remove"));
  else if (!found.length) results.append(line("(nothing found)", "dim"));
  for (const place of found) {
    const element = line(`${place.path}: ${compact(place.value)}`);
    element.dataset.path = place.path;
    element.title = `show ${place.path} in the tree`;
    results.append(element);
  }
  results.hidden = false;
}

/** The compare view: `diff FROM TO` of two steps, the earlier first. */
async function compare(first, second) {
  const [from, to] = first < second ? [first, second] : [second, first];
  const view = $("compare");
  const reply = await run(`diff ${from} ${to}`);
  view.replaceChildren(line(`compare: the state after step ${from} -> after step ${to}`, "dim"));
  for (const object of reply.objects) view.append(...rendered(object));
  view.hidden = false;
  page.compared = [from, to];
}

function line(text, className) {
  const element = document.createElement("div");
  if (className) element.className = className;
  element.textContent = text;
  return element;
}

function select(number) {
  page.selected = number;
  $("compare").hidden = true;
  drawTimeline(false);
  inspect(number);
}

function inspect(number) {
  const inspector = $("inspector");
  inspector.replaceChildren();
  const step = page.steps.find((candidate) => candidate.number === number);
  if (!step) {
    const hint = document.createElement("p");
    hint.className = "dim";
    hint.textContent = "Select a step.";
    inspector.append(hint);
    return;
  }
  const section = (title, ...content) => {
    const heading = document.createElement("h3");
    heading.textContent = title;
    inspector.append(heading, ...content);
  };
  const action = document.createElement("div");
  action.textContent = `${step.number}  ${actionLabel(step.action)}${mark(step)}`;
  const written = document.createElement("div");
  written.className = "dim diff";
  written.textContent = step.action;
  section("Action", ...(actionLabel(step.action) === step.action ? [action] : [action, written]));
  const seen = page.seen.get(number);
  if (!seen) {
    // A step from before the page opened: its diff and its state from the engine, no travel.
    const diff = document.createElement("div");
    diff.className = "diff";
    const state = document.createElement("pre");
    state.className = "diff";
    section("Diff", diff);
    section("State after", state);
    const index = page.steps.findIndex((candidate) => candidate.number === number);
    const before = index > 0 ? page.steps[index - 1].number : 0;
    run(`diff ${before} ${number}`).then((reply) => {
      if (page.selected !== number) return;
      for (const object of reply.objects) diff.append(...rendered(object));
    });
    stateAfter(number).then((frame) => {
      if (page.selected !== number) return;
      if (frame.error) {
        state.textContent = `error: ${frame.error}`;
        return;
      }
      const names = Object.keys(frame.states || {});
      state.textContent = JSON.stringify(names.length === 1 ? frame.states[names[0]] : frame.states, null, 2);
    });
    return;
  }
  const diff = document.createElement("div");
  diff.className = "diff";
  diff.append(...diffLines({ changes: seen.changes, followUps: seen.followUps }));
  section("Diff", diff);
  const state = document.createElement("pre");
  state.className = "diff";
  state.textContent = seen.state === undefined ? "" : JSON.stringify(seen.state, null, 2);
  section("State after", state);
}

/** Undoes or redoes to the selected step (or to position `position` of the slider). */
async function jump(target) {
  const position = typeof target === "number" ? target : page.steps.findIndex((step) => step.number === page.selected) + 1;
  if (position <= 0 && typeof target !== "number") return;
  const count = position - page.done;
  if (count < 0) await submit(`undo ${-count}`);
  else if (count > 0) await submit(`redo ${count}`);
}

// MARK: - The state tree

/** How the shell writes the path of a member: `todos[0].title`, `budget["two words"]`. A key
 * `count` is written `["count"]`: `.count` of a dictionary is its size, and `["count"]` names
 * a member or a key alike. */
function childPath(parent, key) {
  if (typeof key === "number") return `${parent === "." ? "" : parent}[${key}]`;
  if (key !== "count" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return parent === "." ? key : `${parent}.${key}`;
  return `${parent === "." ? "" : parent}[${JSON.stringify(key)}]`;
}

function drawTree() {
  const tree = $("state-tree");
  tree.replaceChildren();
  if (page.state === undefined) return;
  tree.append(node(".", "state", page.state, 0));
  searchTree();
}

function tools(path) {
  const box = document.createElement("span");
  box.className = "tools";
  const copy = document.createElement("button");
  copy.textContent = "copy";
  copy.title = `Copy the path ${path}`;
  copy.dataset.action = "copy";
  copy.onclick = (event) => {
    event.preventDefault();
    navigator.clipboard?.writeText(path);
  };
  const pin = document.createElement("button");
  pin.textContent = "watch";
  pin.title = `watch ${path}: print only the changes under it`;
  pin.dataset.action = "watch";
  pin.onclick = (event) => {
    event.preventDefault();
    submit(`watch ${path}`);
  };
  box.append(copy, pin);
  return box;
}

/** Members shown in one fold: a larger object or array is split into folds of this many. */
const GROUP = 100;

const entriesOf = (value) =>
  Array.isArray(value) ? value.map((member, index) => [index, member]) : Object.entries(value);

/** A fold whose members are drawn when it is first opened (or `draw()` is called). */
function fold(summaryContent, drawMembers) {
  const details = document.createElement("details");
  const summary = document.createElement("summary");
  summary.append(...summaryContent);
  details.append(summary);
  let drawn = false;
  details.draw = () => {
    if (drawn) return;
    drawn = true;
    drawMembers(details);
  };
  details.addEventListener("toggle", () => details.open && details.draw());
  return details;
}

/** A value of the tree: objects and arrays fold, and their members are drawn when first opened;
 * more than 100 members are grouped by hundreds (`[0 … 99]`), each group drawn when opened. */
function node(path, key, value, depth) {
  const label = document.createElement("span");
  label.className = "key";
  label.textContent = key;
  if (!isScalar(value)) {
    const entries = entriesOf(value);
    const count = document.createElement("span");
    count.className = "dim";
    count.textContent = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
    const member = ([name, member]) =>
      node(childPath(path, name), Array.isArray(value) ? `[${name}]` : name, member, depth + 1);
    const details = fold([label, " ", count, " ", tools(path)], (details) => {
      if (entries.length <= GROUP) return details.append(...entries.map(member));
      for (let first = 0; first < entries.length; first += GROUP) {
        const last = Math.min(entries.length, first + GROUP) - 1;
        const range = document.createElement("span");
        range.className = "dim";
        range.textContent = Array.isArray(value) ? `[${first} … ${last}]` : `${entries[first][0]} … ${entries[last][0]}`;
        const group = fold([range], (group) => group.append(...entries.slice(first, last + 1).map(member)));
        group.dataset.first = first;
        group.dataset.last = last;
        details.append(group);
      }
    });
    details.dataset.path = path;
    // NB: with several stores, each store's state is one level deeper, under its alias.
    if (depth < (page.aliases.length ? 4 : 3) && entries.length <= GROUP) {
      details.open = true;
      details.draw();
    }
    return details;
  }
  const row = document.createElement("div");
  row.className = "node";
  row.dataset.path = path;
  const shown = document.createElement("span");
  shown.className = "value";
  shown.textContent = compact(value);
  shown.title = `why ${path}: the steps that made this value`;
  shown.onclick = () => submit(`why ${path}`);
  row.append(label, shown, tools(path));
  return row;
}

/** Marks the values whose key, path or printed value holds the search, and opens the way to them. */
function searchTree() {
  const query = $("find").value.trim().toLowerCase();
  const tree = $("state-tree");
  for (const marked of tree.querySelectorAll(".match")) marked.classList.remove("match");
  if (!query || page.state === undefined) return;
  const found = [];
  const visit = (path, value) => {
    const text = isScalar(value) ? compact(value).toLowerCase() : "";
    if (path.toLowerCase().includes(query) || text.includes(query)) found.push(path);
    if (found.length >= 500 || isScalar(value)) return;
    for (const [name, member] of entriesOf(value)) visit(childPath(path, name), member);
  };
  visit(".", page.state);
  for (const path of found) reveal(path)?.classList.add("match");
}

/** Opens the folds on the way to `path` (and the group of a hundred it is in); returns its element. */
function reveal(path) {
  let element = $("state-tree").firstElementChild;
  if (!element) return null;
  let value = page.state;
  let current = ".";
  while (current !== path) {
    if (isScalar(value)) return null;
    const entries = entriesOf(value);
    const position = entries.findIndex(([name]) => {
      const candidate = childPath(current, name);
      return path === candidate || path.startsWith(candidate + ".") || path.startsWith(candidate + "[");
    });
    if (position < 0) return null;
    current = childPath(current, entries[position][0]);
    value = entries[position][1];
    element.draw?.();
    element.open = true;
    const group = [...element.children].find((child) =>
      child.dataset.first !== undefined && position >= Number(child.dataset.first) && position <= Number(child.dataset.last));
    if (group) {
      group.draw();
      group.open = true;
      element = group;
    }
    element = [...element.children].find((child) => child.dataset.path === current);
    if (!element) return null;
  }
  return element;
}

// MARK: - Input

function setUp() {
  const command = $("command");
  const history = [];
  let recalled = 0;
  command.addEventListener("keydown", async (event) => {
    if (event.key === "Enter") {
      const line = command.value;
      command.value = "";
      $("completions").hidden = true;
      if (line.trim()) history.push(line);
      recalled = history.length;
      await submit(line);
    } else if (event.key === "Tab") {
      event.preventDefault();
      const before = command.value.slice(0, command.selectionStart);
      const answer = await complete(before);
      const candidates = answer.completions || [];
      const shown = $("completions");
      // The word before the cursor replaced by `text`, the cursor after it.
      const put = (text) => {
        const start = before.length - answer.word.length;
        command.value = before.slice(0, start) + text + command.value.slice(before.length);
        command.setSelectionRange(start + text.length, start + text.length);
        shown.hidden = true;
      };
      // As the shell's Tab does: one candidate goes in, with a space after a whole word and none
      // after a path that goes on; of several, what they all have beyond the word; with nothing
      // more in common, they are listed.
      let common = candidates[0] || "";
      for (const candidate of candidates) while (!candidate.startsWith(common)) common = common.slice(0, -1);
      if (candidates.length === 1) put(common + ("[./".includes(common.slice(-1)) ? "" : " "));
      else if (common.length > answer.word.length) put(common);
      else {
        shown.textContent = candidates.join("  ");
        shown.hidden = candidates.length === 0;
      }
    } else if (event.key === "ArrowUp" && recalled > 0) {
      event.preventDefault();
      command.value = history[--recalled];
    } else if (event.key === "ArrowDown" && recalled < history.length) {
      event.preventDefault();
      recalled++;
      command.value = history[recalled] ?? "";
    }
  });
  // The candidates listed are for the line as it was: gone once it changes.
  command.addEventListener("input", () => { $("completions").hidden = true; });
  const timeline = $("timeline");
  timeline.addEventListener("scroll", () => requestAnimationFrame(() => drawTimeline(false)));
  timeline.addEventListener("click", (event) => {
    const toggle = event.target.closest('[data-role="skip"]');
    if (toggle) {
      const number = toggle.closest(".step").dataset.step;
      submit(`${toggle.textContent} ${number}`);
      return;
    }
    const replace = event.target.closest('[data-action="replace"]');
    if (replace) {
      const number = Number(replace.closest(".step").dataset.step);
      const step = page.steps.find((candidate) => candidate.number === number);
      command.value = `replace ${number} ${step.action}`;
      command.focus();
      return;
    }
    const row = event.target.closest(".step");
    if (!row) return;
    // Shift-click: the diff from the selected step to this one, in the compare view.
    if (event.shiftKey && page.selected != null && Number(row.dataset.step) !== page.selected) {
      compare(page.selected, Number(row.dataset.step));
      return;
    }
    select(Number(row.dataset.step));
  });
  // The keyboard: ↑ and ↓ select the step before or after, Enter jumps to it.
  timeline.addEventListener("keydown", (event) => {
    const steps = visibleSteps();
    const at = steps.findIndex((step) => step.number === page.selected);
    if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      event.preventDefault();
      const next = at < 0 ? steps.length - 1 : Math.max(0, Math.min(steps.length - 1, at + (event.key === "ArrowUp" ? -1 : 1)));
      if (next < 0) return;
      const top = next * ROW;
      if (top < timeline.scrollTop) timeline.scrollTop = top;
      else if (top + ROW > timeline.scrollTop + timeline.clientHeight) timeline.scrollTop = top + ROW - timeline.clientHeight;
      select(steps[next].number);
    } else if (event.key === "Enter" && page.selected != null) {
      event.preventDefault();
      jump();
    }
  });
  $("filter").addEventListener("input", () => drawTimeline(false));
  $("find").addEventListener("input", searchTree);
  $("find").addEventListener("keydown", (event) => {
    if (event.key === "Enter") findInState($("find").value.trim());
  });
  $("find-results").addEventListener("click", (event) => {
    const place = event.target.closest("[data-path]");
    if (!place) return;
    const element = reveal(place.dataset.path);
    element?.classList.add("match");
    element?.scrollIntoView({ block: "nearest" });
  });
  $("jump").addEventListener("click", () => jump());
  document.querySelector('[data-action="download"]').addEventListener("click", () => submit("save session.scenario"));
  const chooser = $("open-file");
  document.querySelector('[data-action="open"]').addEventListener("click", () => chooser.click());
  chooser.addEventListener("change", () => {
    const [file] = chooser.files;
    chooser.value = "";
    if (file) openScenario(file);
  });
  $("slider").addEventListener("change", (event) => jump(Number(event.target.value)));
  command.focus();
  connect();
}

setUp();
// For scripts and benchmarks that drive the page (Tests/Web).
window.fluxsh = { page, drawTimeline, drawTree, submit };
