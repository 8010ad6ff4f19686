// The raw protocol console: every line of the play session both ways, and
// a line to type commands as over `nc`. What it sends goes through the
// same client as the board's commands, so replies still pair up.

const MAX_LINES = 2000;

export class Console {
  constructor(client, root, onCommandDone) {
    this.log = root.querySelector("#log");
    const input = root.querySelector("#console-line");
    const history = [];
    let back = 0;
    client.listen((dir, line) => {
      if (dir === "open") this.show("connected", "info");
      else if (dir === "closed") this.show("disconnected", "error");
      else if (dir === ">") this.show(`> ${line}`, "sent");
      else this.show(line, line.startsWith("error ") ? "error" : line.startsWith("info ") ? "info" : "");
    });
    root.querySelector("#console-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = input.value;
      input.value = "";
      if (text.trim()) history.push(text);
      back = history.length;
      client.send(text).then(onCommandDone, (e) => this.show(e.message, "error"));
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "ArrowUp" && back > 0) {
        input.value = history[--back];
        event.preventDefault();
      } else if (event.key === "ArrowDown" && back < history.length) {
        input.value = history[++back] ?? "";
        event.preventDefault();
      }
    });
  }

  show(text, kind) {
    const div = document.createElement("div");
    div.textContent = text;
    if (kind) div.className = kind;
    this.log.appendChild(div);
    while (this.log.childElementCount > MAX_LINES) this.log.firstElementChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }
}
