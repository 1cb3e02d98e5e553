// Step through the game: every piece on the board carries data-turn, the turn that put it
// there; turn N shows the pieces of turns 1 … N and marks those of turn N.
(function () {
  "use strict";
  var board = document.getElementById("board");
  if (!board) { return; }
  var last = parseInt(board.getAttribute("data-turns"), 10) || 0;
  var pieces = board.querySelectorAll("[data-turn]");
  var rows = document.querySelectorAll("#moves tr[data-turn]");
  var counter = document.getElementById("counter");
  var moveOf = {};
  var rowOf = {};
  for (var i = 0; i < rows.length; i++) {
    var t = parseInt(rows[i].getAttribute("data-turn"), 10);
    moveOf[t] = rows[i].getAttribute("data-move");
    rowOf[t] = rows[i];
  }
  var current = last;

  function show(turn, scroll) {
    current = Math.max(0, Math.min(last, turn));
    for (var i = 0; i < pieces.length; i++) {
      var t = parseInt(pieces[i].getAttribute("data-turn"), 10);
      pieces[i].classList.toggle("hidden", t > current);
      pieces[i].classList.toggle("current", t === current);
    }
    for (var j = 0; j < rows.length; j++) {
      rows[j].classList.toggle("current", rows[j] === rowOf[current]);
    }
    var text = "turn " + current + " of " + last;
    if (moveOf[current] && current > 0) { text += ": " + moveOf[current]; }
    counter.textContent = text;
    document.getElementById("first").disabled = current === 0;
    document.getElementById("prev").disabled = current === 0;
    document.getElementById("next").disabled = current === last;
    document.getElementById("last").disabled = current === last;
    if (scroll && rowOf[current] && rowOf[current].scrollIntoView) {
      rowOf[current].scrollIntoView({ block: "nearest" });
    }
    board.dispatchEvent(new CustomEvent("turnshown", { detail: current }));
  }
  // Another script (evals.js) asks for a turn.
  board.addEventListener("showturn", function (e) { show(e.detail, true); });

  document.getElementById("first").addEventListener("click", function () { show(0, true); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1, true); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1, true); });
  document.getElementById("last").addEventListener("click", function () { show(last, true); });
  for (var k = 0; k < rows.length; k++) {
    rows[k].addEventListener("click", function () {
      show(parseInt(this.getAttribute("data-turn"), 10), false);
    });
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    var to = null;
    switch (e.key) {
      case "ArrowLeft": to = current - 1; break;
      case "ArrowRight": to = current + 1; break;
      case "Home": to = 0; break;
      case "End": to = last; break;
    }
    if (to !== null) {
      e.preventDefault();
      show(to, true);
    }
  });
  show(last, false);
})();
