"""The sheet's rows and words: pure values and the model."""
