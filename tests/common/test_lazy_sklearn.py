"""scikit-learn's machinery without importing scikit-learn with the package:
the estimators become ``sklearn.base.BaseEstimator`` subclasses when
scikit-learn is imported, before or after the package, and the parts of it a
notebook or a user asks for first (display, routing) import it then."""
import pytest

from helpers import run_python

pytest.importorskip("sklearn")

CHECKS = """
from sklearn.base import BaseEstimator, clone, is_classifier
from sklearn.utils import get_tags
from perceptron import (CentroidClassifier, KernelPerceptron, Perceptron,
                        PassiveAggressiveClassifier, StructuredPerceptron, VotedPerceptron)
from perceptron.tagging import PerceptronTagger

for cls in (Perceptron, PassiveAggressiveClassifier, VotedPerceptron, CentroidClassifier,
            KernelPerceptron, StructuredPerceptron, PerceptronTagger):
    assert issubclass(cls, BaseEstimator), cls
    est = cls()
    assert isinstance(est, BaseEstimator)
    assert clone(est).get_params() == est.get_params()
    assert "<div" in est._repr_html_()
expected = {Perceptron: {"fit", "partial_fit", "score"}, VotedPerceptron: {"score"},
            CentroidClassifier: {"fit", "score"}, KernelPerceptron: {"score"}}
for cls, methods in expected.items():
    setters = {name[len("set_"):-len("_request")] for name in dir(cls)
               if name.startswith("set_") and name.endswith("_request")}
    assert setters == methods, (cls, setters)
    assert is_classifier(cls()) and get_tags(cls()).input_tags.sparse
import sklearn
with sklearn.config_context(enable_metadata_routing=True):
    est = Perceptron().set_fit_request(sample_weight=True)
    assert est.get_metadata_routing().fit.requests["sample_weight"] is True
    assert clone(est).get_metadata_routing().fit.requests["sample_weight"] is True
# a class defined after the join is scikit-learn's as any other
class Mine(Perceptron):
    def fit(self, X, y, sample_weight=None, groups=None):
        return super().fit(X, y, sample_weight=sample_weight)
assert "groups" in Mine().get_metadata_routing().fit.requests
print("ok")
"""


@pytest.mark.slow  # a fresh interpreter
def test_scikit_learn_imported_after_the_package():
    out, _ = run_python("""
import sys
import perceptron
assert "sklearn" not in sys.modules and "sklearn.base" not in sys.modules
from sklearn.base import BaseEstimator
assert not any(isinstance(f, type(perceptron._common.sklearn_compat._HOOK))
               for f in sys.meta_path)  # the hook is gone once it has served
import sklearn.base
assert sys.modules["sklearn.base"].__loader__.__class__.__name__ != "_JoinAfter"
""" + CHECKS)
    assert out.strip() == "ok"


@pytest.mark.slow  # a fresh interpreter
def test_scikit_learn_imported_before_the_package():
    out, _ = run_python("import sklearn.base\nimport perceptron\n" + CHECKS)
    assert out.strip() == "ok"


@pytest.mark.slow  # a fresh interpreter
def test_display_and_routing_load_scikit_learn_on_first_use():
    out, _ = run_python("""
import sys
from perceptron import Perceptron
est = Perceptron(eta0=0.5)
assert "sklearn" not in sys.modules
bundle = est._repr_mimebundle_()  # what a notebook asks for first
assert "sklearn.base" in sys.modules
assert bundle["text/plain"] == "Perceptron(eta0=0.5)" and "eta0" in bundle["text/html"]
from sklearn.base import BaseEstimator
assert isinstance(est, BaseEstimator)
print("ok")
""")
    assert out.strip() == "ok"
    out, _ = run_python("""
import sys
from perceptron import CentroidClassifier
routing = CentroidClassifier().get_metadata_routing()
assert routing.fit.requests == {"sample_weight": None}
assert not hasattr(CentroidClassifier(), "set_partial_fit_request")
assert not hasattr(CentroidClassifier(), "coef_")
print("ok")
""")
    assert out.strip() == "ok"
