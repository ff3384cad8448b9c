"""Every mode's house rules, as data: what ``boardside.settings`` reads for the
protocol's ``set`` and the settings screen, without importing any game.

The settings screen lists every mode's settings; if it had to import each mode to
read its table, opening it would load all six games at once, more than the RP2040's
heap holds when the code runs from ``.mpy`` files. So the tables live here, in a
module that imports nothing, and a mode's class takes its own from
``settings.table_of(<mode name>)``.

One entry per setting, in the order the screen lists them:

    ("bool", name, label, default)
    ("int", name, label, default, lo, hi[, step[, unit[, off]]])
    ("choice", name, label, default, values, labels)
    ("text", name, label, default, "module:parser", ((text, label), ...))

``label`` is what the LEDs show (a few letters). A text setting names its parser
instead of holding it: the parser's module is imported only when a value is checked.
Defaults that a rules package also states are kept equal by tests
(tests/portable/test_settings.py).
"""

TABLES = {
    "dice": (
        # a secret roll may be read over USB (each read shows on the LEDs and is logged)
        ("bool", "usb_peek", "USB PEEK", False),
    ),
    "quoridor": (
        # 4 players: side-step when a pawn stands behind the jumped pawn (docs/quoridor.md)
        ("bool", "side_step_past_third_pawn", "3RD", True),
        # the board edge behind the jumped pawn allows a side-step
        ("bool", "side_step_at_edge", "EDGE", True),
        # a chess clock per player, in seconds; 0: no clock (the rules have none)
        ("int", "clock_s", "CLK", 0, 0, 7200, 60, "S", "OFF"),
    ),
    "pacman": (
        ("bool", "boost_eats_passed", "BOOST EATS PASSED", False),
        ("choice", "sight", "SIGHT", "all", ("all", "facing"), ("ALL", "FACE")),
        ("bool", "frenzy_turn", "FRENZY TURN", False),
        ("choice", "walk_into_ghost", "ONTO GHOST", "caught", ("caught", "blocked", "eats"),
         ("CATCH", "BLOCK", "EAT")),
        ("bool", "ghosts_share", "GHOSTS SHARE", False),
        ("int", "lives", "LIVES", 3, 1, 9),
        ("bool", "back_to_start", "BACK TO START", True),
        ("choice", "boost", "BOOST", "exact", ("exact", "optional"), ("EXACT", "MAY")),
        ("bool", "frenzy_over_pellet", "FRENZY OVER PELLET", True),
        ("bool", "ghosts_block_sight", "GHOSTS BLOCK SIGHT", False),
    ),
    "qbert": (
        # what the character die does when it shows a character that is out
        ("choice", "out_rule", "OUT", "reroll", ("reroll", "lose_turn"), ("ROLL", "LOSE")),
        # the players' own die (docs/qbert.md): the presets by name, or any faces
        ("text", "faces", "FACE", "coily,red_ball,green_ball,slick,ugg,wrong_way",
         "boardside.qbert:parse_faces",
         (("coily,red_ball,green_ball,slick,ugg,wrong_way", "SIX"),
          ("coily,red_ball,green_ball,slick,ugg/wrong_way,coily", "UGWW"))),
        # the hidden roll may be read over USB (each read shows on the LEDs and is logged)
        ("bool", "usb_peek", "USB PEEK", False),
    ),
    "cubequest": (
        # teams entered in secret, shown when both are done
        ("bool", "secret_teams", "SECRET TEAMS", False),
        # "The first player to win three bouts wins the game" (fixed when a game starts)
        ("int", "bouts_to_win", "BOUTS", 3, 1, 9),
        # a used Healer counts as defeated (so another Healer may revive it)
        ("bool", "used_healer_defeated", "USED HEALER OUT", False),
        # every miss-flick gives one more extra flick (off: at most one per turn)
        ("bool", "stack_extra_flicks", "STACK EXTRA", True),
        # a turn spent instead of flicking keeps the extra flicks owed to it
        ("bool", "extra_flick_with_special", "EXTRA ON MOVE", True),
        # Healers used together: each its own 6 points (off: their points pooled)
        ("bool", "healer_lots", "HEALER LOTS", False),
        # a revived Freeze waits off the board (off: in the castle, as other cubes)
        ("bool", "revived_freeze_unused", "FREEZE OFF BOARD", False),
        # a move instead of flicking may come after a flick, in place of one left
        ("bool", "special_after_flick", "MOVE AFTER FLICK", False),
    ),
    "qubo": (
        # 10 points during the final round: win at once, or play the round to its end
        # and compare (docs/qubo.md: the rules do not say)
        ("choice", "final_round_win", "FINAL 10", "instant", ("instant", "round_end"),
         ("NOW", "END")),
        # a shape formed in another player's colour scores for nobody, or for its owner
        ("choice", "others_shapes", "OTHERS' SHAPES", "nobody", ("nobody", "owner"),
         ("NONE", "OWNER")),
    ),
}
