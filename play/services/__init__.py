"""Every change of an online game, one named function each, in one module per topic.

Import a name from the module that defines it (this package re-exports nothing). From
the bottom up (a module imports only modules above it in this list):

- ``errors``: ``PlayError`` and ``NotAllowed``, what a person is told;
- ``engines``: the engine of a game system (``engine_of``) and its bots;
- ``sessions``: the session row locked for a change, its seats, the seat a user holds;
- ``payloads``: what each seat and spectator is sent, pushed after commit;
- ``clocks``: the players' time banks, moved after every change (``after_change``);
- ``starting``: casual games, invitations, and the games of a tournament match;
- ``ending``: leaving and finishing a game, its result handed to the match;
- ``acting``: moves, bots' moves, time running out, conceding, calling a game off;
- ``reading``: the game log, the end of it the live table shows, and replays.

``play.tasks`` and ``play.decks`` call into this package and are called from it
(``queue_move``, the clocks; the casual decks): those imports stay inside the functions.

Flow of one action (docs: DESIGN.md, "Flow of one online game"):

1. ``acting.submit_action`` (called by the view or the websocket) checks that the user
   holds a seat that may act now and enqueues ``play.tasks.apply_action`` with JSON
   arguments;
2. the worker runs ``acting.apply_action``: it locks the session row, refuses a stale
   ``seq`` or an action out of turn, calls the engine (``IllegalAction`` changes nothing
   and goes back to that player), stores the new state, appends the ``ActionLog`` row,
   bumps ``seq`` and moves the clocks, all in one transaction;
3. after commit each seat's own view goes to that seat's channel group and the public
   view to spectators; the next bot move and the clock tasks are scheduled.

Every task carries the ``seq`` it was made for, so a retry after a worker crash
(``acks_late``), a late clock or a second bot move changes nothing: the lock serialises
them, the ``seq`` check refuses all but the first, and the unique ``(session, seq)``
constraint backs it.

Nothing here knows a particular game: the engine and its bots come from the registry
(``engines``).
"""
