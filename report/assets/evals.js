// The engine's reading of the game (ponte annotate): the win-chance graph follows the
// turn shown, a click on its points shows that turn, and the board draws the engine's best
// turn in the position shown.
(function () {
  "use strict";
  var board = document.getElementById("board");
  var graph = document.getElementById("evalgraph");
  if (!board || !graph) { return; }
  var cursor = document.getElementById("evalcursor");
  var points = graph.querySelectorAll("circle[data-turn]");
  var bests = board.querySelectorAll("g.best[data-best]");
  var pointOf = {};
  for (var i = 0; i < points.length; i++) {
    pointOf[points[i].getAttribute("data-turn")] = points[i];
    points[i].addEventListener("click", function () {
      board.dispatchEvent(new CustomEvent("showturn", { detail: parseInt(this.getAttribute("data-turn"), 10) }));
    });
  }
  function follow(turn) {
    for (var i = 0; i < points.length; i++) { points[i].classList.remove("shown"); }
    var p = pointOf[turn];
    if (p) {
      p.classList.add("shown");
      cursor.setAttribute("x1", p.getAttribute("cx"));
      cursor.setAttribute("x2", p.getAttribute("cx"));
    }
    for (var j = 0; j < bests.length; j++) {
      bests[j].classList.toggle("hidden", parseInt(bests[j].getAttribute("data-best"), 10) !== turn);
    }
  }
  board.addEventListener("turnshown", function (e) { follow(e.detail); });
  follow(parseInt(board.getAttribute("data-turns"), 10) || 0);
})();
