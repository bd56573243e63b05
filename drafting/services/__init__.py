"""Every change of a pod's state, one named function each, in one module per topic.

Views, the API, tasks and the tournament console call these; nothing else writes pods,
seats or picks. Import a name from the module that defines it (this package re-exports
nothing). From the bottom up (a module imports only modules above it in this list):

- ``errors``: ``PodError`` and ``NotAllowed``, what a person is told;
- ``kits``: the game's limited kit (boosters, bots, deck sections, card faces) and its
  decklist service, both named by the registry;
- ``pods``: the pod row locked for a change, who may manage a pod, the seat a user holds;
- ``timers``: the review before a new booster and the one timer check a pod has queued;
- ``messages``: what live pages are told after commit: a player's pack, the pod's progress;
- ``pools``: a seat's pool, what it builds from, the cards the organiser supplies;
- ``decks``: deck building: checks, submitted and bots' decks, the deadline, the pod done;
- ``changes``: one pick applied to the locked pod, the bots' choices, and ``after_change``,
  which every change of a drafting pod ends with;
- ``picks``: a player's pick and highlight; the timer's and the bots' picks;
- ``seats``: joining and leaving, a seat handed to a bot and taken back;
- ``starting``: a pod started (seats drawn, bots seated, boosters opened), an event's pods;
- ``creating``: casual and quick pods, and the pods of a limited event;
- ``reading``: what anybody may see of a pod: progress, whose picks, a seat's pick log.

The rules of passing live in the pure ``drafting.draft``; boosters, bot choices, deck
sections and card faces come from the game's limited kit (``engine.core.limited``) and
deck checks from its decklist service (``engine.core.decklists``): these modules are the
adapter that turns rows into their input and their output back into rows.
``drafting.tasks`` calls into this package and is queued from it (``timers``, ``decks``):
those imports stay inside the functions.

Flow of one pick:

1. ``picks.make_pick`` (the view, the socket through the view, the API) locks the pod
   row (``pods.lock_pod``) and checks the seat and the pod's status;
2. ``changes.apply_pick`` checks the pick number the page answered against the state,
   applies ``draft.pick`` and writes the ``Pick`` row and the new state together; the
   unique constraint on ``Pick`` is the last line of defence;
3. ``changes.after_change``, still under the lock: inline bots pick, each seat that faces
   a new pick gets its deadline (with review time before a new booster) and the pod's
   one ``run_timers`` check is armed for the earliest (``timers``); the draft's last pick
   starts deck building (``decks``);
4. after commit each player who now faces a pack is sent it on their own group and the
   pod's group its progress (``messages``); the picker's page learns its next pack from
   the answer to its request. Pack contents never travel to the pod's group.

Timers and bots' picks are Celery tasks queued after commit (``picks.run_timers``,
``picks.auto_pick``); each carries the pick number it was scheduled for, so a task that
fires late or twice finds the seat past that pick and changes nothing.
"""
