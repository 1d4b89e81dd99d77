"""placeholder"""
from verify.claims.decision import Decision


def structure_step(rel):
    return Decision("undecided", None, "structure", detail="no structural rule applies")
