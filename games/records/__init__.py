"""A game's record and its proof: the commitment and the hash chain as shown, the record a
finished game publishes, the replay step by step, the check that replaying the moves
gives the snapshot.
"""
