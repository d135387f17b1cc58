"""Small transcripts shared by the tests."""

#: A clean game: bob opens, alice plays, bob doubles, alice drops.
GOOD_GAME = """ 3 point match

 Game 1
 alice : 0                      bob : 0
  1)                             41: 13/9 24/23
  2) 31: 8/5 6/5                  Doubles => 2
  3)  Drops                       Wins 1 point
"""

#: The same game with an illegal play by alice on line 6 (8/4 with a 3-1).
BROKEN_GAME = GOOD_GAME.replace("31: 8/5 6/5", "31: 8/4 6/5")
