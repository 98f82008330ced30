"""pytest_texts_score: does a generated text carry the same facts as a reference?"""
